import { describe, expect, it } from 'vitest';
import type { FlowSummary, Scenario } from '../api/types';
import {
  describeCampaign,
  describeFlows,
  describeForwardChannel,
  describeScenario,
  flowFigure,
  formatBytes,
  formatChange,
  formatCount,
  formatDuration,
  formatNumber,
  formatSize,
} from './format';

const flow = (download_time_s: number | null, goodput_mbps: number | null): FlowSummary => ({
  iteration: 0,
  flow: 0,
  group: 0,
  transport: 'tcp',
  cc: 'cubic',
  direction: 'download',
  start_s: 0,
  bytes: 300000,
  download_time_s,
  goodput_mbps,
  retransmissions: 0,
  mean_rtt_ms: 504,
  power_mbps_per_s: 1.5,
  error: download_time_s === null ? 'iperf3 exited 1' : null,
});

describe('flowFigure', () => {
  it('gives a lone flow its value and several flows their mean, leaving failed flows out', () => {
    expect(flowFigure([flow(3.177, 0.76)], 'download_time_s', 2)).toBe('3.18');
    expect(flowFigure([flow(3, 1), flow(5, 2), flow(null, null)], 'download_time_s', 1)).toBe('4.0 (mean of 2)');
    expect(flowFigure([flow(null, null)], 'goodput_mbps', 2)).toBe('–');
    expect(flowFigure([], 'goodput_mbps', 2)).toBe('–');
  });
});

describe('formatting', () => {
  it('prints figures, sizes and durations with their units', () => {
    expect(formatNumber(0.76061, 2)).toBe('0.76');
    expect(formatNumber(null, 2)).toBe('–');
    expect(formatBytes(20971520)).toBe('20,971,520 bytes = 20.00 MiB');
    expect(formatDuration(3.177)).toBe('3.2 s');
    expect(formatDuration(297.4)).toBe('4 min 57 s');
    expect(formatChange(10.94)).toBe('+10.9');
    expect(formatChange(-3.21)).toBe('-3.2');
    expect(formatChange(0)).toBe('0.0');
    expect(formatChange(null)).toBe('–');
    expect(formatCount(1, 'run')).toBe('1 run');
    expect(formatCount(1200, 'run')).toBe('1,200 runs');
  });
});

describe('describing a run', () => {
  const scenario: Scenario = {
    name: 'latecomer',
    description: '',
    iterations: 1,
    tunnel: { k: 5, z: 100 },
    flows: [
      { transport: 'tcp', cc: 'cubic', hystart: false, size_bytes: 20971520, duration_s: null, count: 1, start_s: 0, direction: 'download' },
      { transport: 'quic-picoquic', cc: 'bbr1', hystart: null, size_bytes: 300000, duration_s: null, count: 2, start_s: 5, direction: 'download' },
    ],
  };

  it('says what each flow group moves and which FEC protects it', () => {
    expect(describeScenario(scenario)).toBe(
      '1 × tcp cubic (Hystart off), 20 MiB · 2 × quic-picoquic bbr1, 300,000 bytes from 5 s · FEC S(5,100)',
    );
    expect(describeScenario({ ...scenario, tunnel: null, flows: [{ ...scenario.flows[0], size_bytes: null, duration_s: 30, direction: 'upload' }] })).toBe(
      '1 × tcp cubic (Hystart off), 30 s upload · no FEC tunnel',
    );
    expect(formatSize(1572864)).toBe('1.5 MiB');
  });

  it('says what the forward channel loses, with the p and q derived from measured statistics', () => {
    const withChannel = (channel: object) => ({ ...scenario, path: { forward: { channel } } });
    expect(
      describeForwardChannel(
        withChannel({ model: 'ge-time', loss_time_ratio: 0.0256, mean_burst_ms: 16.7, step_ms: 10, p: 0.01573208, q: 0.5988024 }),
      ),
    ).toBe('Forward channel: Gilbert-Elliott in time, 2.56 % of the time lost in bursts of 16.7 ms on average (p 0.0157, q 0.599 per 10 ms step, derived)');
    expect(describeForwardChannel(withChannel({ model: 'ge-time', p: 0.01, q: 0.167, step_ms: 10 }))).toBe(
      'Forward channel: Gilbert-Elliott in time, p 0.01, q 0.167 per 10 ms step',
    );
    expect(describeForwardChannel(withChannel({ model: 'outage', period_ms: 258, duration_ms: 15.2 }))).toBe(
      'Forward channel: an outage of 15.2 ms every 258 ms',
    );
    expect(describeForwardChannel(withChannel({ model: 'perfect' }))).toBeNull();
    expect(describeForwardChannel(scenario)).toBeNull();
  });

  it('counts finished flows by transport and congestion control, once per run', () => {
    const flows = [flow(3, 1), { ...flow(3, 1), flow: 1 }, { ...flow(3, 1), flow: 2, cc: 'bbr' }, { ...flow(3, 1), iteration: 1 }];
    expect(describeFlows(flows)).toBe('2 × tcp cubic, tcp bbr');
    expect(describeFlows([])).toBe('–');
  });
});

describe('describeCampaign', () => {
  it('says what the campaign runs, values as the backend prints them', () => {
    expect(
      describeCampaign({
        name: 'cc-vs-fec',
        scenario: 'geo-optical',
        set: { 'flows.0.size_bytes': 2000000, 'flows.0.hystart': null },
        matrix: { 'flows.0.cc': ['cubic', 'bbr'], tunnel: [null, { k: 5, z: 100 }] },
        iterations: 3,
        parallel: 1,
        seed: 7,
      }),
    ).toBe(
      'geo-optical · set flows.0.size_bytes=2000000, flows.0.hystart=null · matrix flows.0.cc: cubic, bbr × tunnel: null, {"k":5,"z":100} · 3 iterations, 1 at once, seed 7',
    );
    expect(describeCampaign({ name: 'x', scenario: { name: 'inline' }, set: {}, matrix: {}, iterations: 1, parallel: 1, seed: 1 })).toBe(
      'an inline scenario · 1 iteration, 1 at once, seed 1',
    );
  });
});
