import { describe, expect, it } from 'vitest';
import { convergenceNote } from './convergence';
import type { ResidualPoint } from './residual-curve';
import { addBatch, emptyTally } from './residual-interval';

/** A point of 32 batches of 1000 sources, losing lostPerBatch(i) in batch i. */
const point = (k: number, lostPerBatch: (batch: number) => number): ResidualPoint => ({
  k,
  packets: 0,
  packetsLost: 0,
  ...Array.from({ length: 32 }, (_, batch) => batch).reduce((tally, batch) => addBatch(tally, 1000, lostPerBatch(batch)), emptyTally),
});

describe('convergenceNote', () => {
  it('calls a curve of steady losses converged', () => {
    expect(convergenceNote([point(1, () => 50), point(2, () => 20)], true)).toBe(
      'Converged: every 95 % interval lies within ±20 % of its point.',
    );
  });

  it('names the points whose losses came in too few bursts, and bounds the points that lost nothing', () => {
    const note = convergenceNote([point(1, (batch) => (batch === 3 ? 40 : 0)), point(2, () => 0)], false);
    expect(note).toMatch(/^Not converged yet: the 95 % interval of k = 1 is wider than ±20 % of the point/);
    expect(note).toMatch(/Nothing lost for k = 2: their residual loss is below 0\.012 % \(95 %\)/);
  });
});
