import { describe, expect, it } from 'vitest';
import type { RunFidelity } from '../api/types';
import { fidelitySentence, fidelityVerdict, formatLateness } from './fidelity';

// Shaped as a run's summary carries it (backend/satlab/engine/fidelity.py, run_evidence).
const evidence = (fields: Partial<RunFidelity>): RunFidelity => ({
  measured_s: 31.2,
  load_avg_1m_start: 0.4,
  load_avg_1m_end: 1.1,
  load_avg_1m_max: 1.3,
  cpu_steal_ratio: 0.002,
  cpu_steal_ratio_peak_1s: 0.01,
  cpu_busy_ratio: 0.31,
  satlink_lateness_p99_ms: 0.052,
  satlink_lateness_max_ms: 0.8,
  tunnel_lateness_p99_ms: 0.41,
  tunnel_lateness_max_ms: 12.5,
  satlink_cpu_s: 1.2,
  tunnel_cpu_s: 2.9,
  runs_at_once_mean: 3.7,
  runs_at_once_max: 4,
  realtime_threads: true,
  host_kept_up: true,
  problems: [],
  host: { host_name: 'vm', kernel: '6.18', cpu_model: null, cpu_count: 2, satlab_version: '0.1.0' },
  run_kind: 'tunnel',
  calibration: null,
  iterations: 1,
  lateness_p99_limit_ms: 1,
  ...fields,
});

describe('fidelity', () => {
  it('names the verdict and what it means for the figures', () => {
    expect(fidelityVerdict(evidence({}))).toBe('kept-up');
    expect(fidelitySentence(evidence({}))).toMatch(/^The host kept up: .* under 1\.0 ms/);
    const late = evidence({ host_kept_up: false, tunnel_lateness_p99_ms: 4.2 });
    expect(fidelityVerdict(late)).toBe('late');
    expect(fidelitySentence(late)).toMatch(/^The host did not keep up: .*reached 1\.0 ms, so the figures measure this host's load/);
    const netem = evidence({ host_kept_up: null, satlink_lateness_p99_ms: null });
    expect(fidelityVerdict(netem)).toBe('unknown');
    expect(fidelitySentence(netem)).toMatch(/unknown: nothing measured/);
  });

  it('prints a lateness with its maximum, or a dash without one', () => {
    expect(formatLateness(0.41, 12.5)).toBe('0.410 ms (max 12.5 ms)');
    expect(formatLateness(null, null)).toBe('–');
    expect(formatLateness(undefined, undefined)).toBe('–');
  });
});
