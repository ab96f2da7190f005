import { describe, expect, it } from 'vitest';
import { describeChannel } from './channel-description';

describe('describeChannel', () => {
  it('names the model and every setting, the seed among them', () => {
    expect(describeChannel({ kind: 'ge_time', seed: 7, p: 0.01, q: 0.167, stepMs: 10 })).toBe(
      'Gilbert-Elliott per time step (seed 7, p 0.01, q 0.167, stepMs 10)',
    );
    expect(describeChannel({ kind: 'perfect' })).toBe('Perfect (no loss)');
  });

  it('writes a trace’s intervals as start-end in ms', () => {
    expect(describeChannel({ kind: 'trace', intervals: [{ startMs: 5, endMs: 9 }, { startMs: 20, endMs: 21 }], tracePeriodMs: 0 })).toBe(
      'Loss trace replay (intervals 5-9,20-21, tracePeriodMs 0)',
    );
  });
});
