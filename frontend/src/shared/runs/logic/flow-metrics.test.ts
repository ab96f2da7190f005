import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../api/types';
import { flowRoles, formatConvergence, formatPercent, formatStartup } from './flow-metrics';
import { flowResultOf } from '../../../test/api-fixtures';

const flow = (figures: Partial<FlowSummary>): FlowSummary =>
  flowResultOf({
  iteration: 0,
  flow: 1,
  group: 1,
  transport: 'tcp',
  cc: 'cubic',
  direction: 'download',
  start_s: 10,
  bytes: 2_000_000,
  download_time_s: 6.8,
  goodput_mbps: 2.35,
  retransmissions: 0,
  mean_rtt_ms: 620,
  power_mbps_per_s: 3.8,
  error: null,
  ...figures,
});

describe('formatStartup', () => {
  it('gives the start-up in s, "not reached" when the flow was all start-up, a dash without figures', () => {
    expect(formatStartup(flow({ startup_s: 4.537, startup_goodput_mbps: 5.3 }))).toBe('4.5');
    expect(formatStartup(flow({ startup_s: null, startup_goodput_mbps: 2.6 }))).toBe('not reached');
    // A run summarised before the start-up existed, and a failed flow.
    expect(formatStartup(flow({}))).toBe('–');
    expect(formatStartup(flow({ startup_s: null, startup_goodput_mbps: 0.1, error: 'iperf3 exited 1' }))).toBe('–');
  });
});

describe('formatConvergence', () => {
  it('gives a latecomer its convergence time or "never", and no figure to the others', () => {
    expect(formatConvergence(flow({ latecomer: true, latecomer_convergence_s: 7.25 }))).toBe('7.3');
    expect(formatConvergence(flow({ latecomer: true, latecomer_convergence_s: null }))).toBe('never');
    expect(formatConvergence(flow({ latecomer: false, latecomer_convergence_s: null }))).toBe('–');
    expect(formatConvergence(flow({}))).toBe('–');
  });
});

describe('formatPercent', () => {
  it('gives a ratio in %, a dash without one', () => {
    expect(formatPercent(0.8312)).toBe('83.1');
    expect(formatPercent(null)).toBe('–');
    expect(formatPercent(undefined)).toBe('–');
  });
});

describe('flowRoles', () => {
  it('names a latecomer and a short flow beside a long one', () => {
    expect(flowRoles(flow({ latecomer: true, short_beside_long: true }))).toBe('latecomer, short beside long');
    expect(flowRoles(flow({ latecomer: false, short_beside_long: true }))).toBe('short beside long');
    expect(flowRoles(flow({ latecomer: false, short_beside_long: false }))).toBe('');
    expect(flowRoles(flow({}))).toBe('');
  });
});
