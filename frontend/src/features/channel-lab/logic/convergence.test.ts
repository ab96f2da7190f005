import { describe, expect, it } from 'vitest';
import { convergenceNote, samplingNote } from './convergence';
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

describe('samplingNote', () => {
  it('says how the workers shared the samples and which seed each drew the channel with', () => {
    expect(samplingNote(2, 1)).toBe(
      "Counted by 2 Web Workers, one per core: each over its own stretch of every k's stream, its packets sent at the times they would be in one long stream, " +
        'worker i drawing the channel with seed 1 + i × 2654435769 (mod 2³²): 1, 2,654,435,770. The same settings give the same curve wherever 2 workers count it.',
    );
    expect(samplingNote(3, undefined)).toMatch(/in one long stream\. The same settings/);
    expect(samplingNote(1, 1)).toBe('Counted in one Web Worker, over one stream per k.');
  });
});
