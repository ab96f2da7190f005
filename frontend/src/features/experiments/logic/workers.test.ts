import { describe, expect, it } from 'vitest';
import type { Worker } from '../api/workers';
import { capacityOf } from './workers';

const worker = (calibration: Worker['calibration'], maxRuns = 16): Worker => ({
  name: 'lab-pc-7',
  host: 'lab-pc-7',
  kernel: '6.18.0',
  satlab_version: '0.1.0',
  started_at: 1000,
  seen_at: 1010,
  calibration,
  max_runs: maxRuns,
  runs: [],
  refused: 0,
  last_refusal: null,
  waiting_reason: null,
});

describe('capacityOf', () => {
  it('lists each calibrated kind in one order', () => {
    const calibrated = worker({ measured_at: '2026-11-27T10:00:00+00:00', max_concurrent: { quic: 8, kernel_tcp: 16, tunnel: 8 } });
    expect(capacityOf(calibrated)).toBe('kernel TCP 16 · tunnel 8 · QUIC 8');
  });

  it('says a worker without a calibration runs as many as its bound allows', () => {
    expect(capacityOf(worker(null, 1))).toBe('not calibrated: 1 at a time');
  });
});
