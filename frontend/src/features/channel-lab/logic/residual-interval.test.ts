import { describe, expect, it } from 'vitest';
import { type BatchTally, addBatch, designEffect, emptyTally, residualEstimate, wilsonInterval } from './residual-interval';

const tallyOf = (batches: [number, number][]): BatchTally =>
  batches.reduce((tally, [sources, lost]) => addBatch(tally, sources, lost), emptyTally);

describe('wilsonInterval', () => {
  it('gives the textbook 95 % bounds', () => {
    const [lower, upper] = wilsonInterval(5, 100);
    expect(lower).toBeCloseTo(0.0215, 4);
    expect(upper).toBeCloseTo(0.1118, 4);
  });

  it('bounds a rate where nothing was lost away from 0: about 3.84 / n', () => {
    const [lower, upper] = wilsonInterval(0, 100_000);
    expect(lower).toBe(0);
    expect(upper).toBeCloseTo(3.84e-5, 6);
  });
});

describe('designEffect', () => {
  it('is 1 for batches that agree, and for one batch', () => {
    expect(designEffect(tallyOf(Array.from({ length: 10 }, () => [1000, 10])))).toBe(1);
    expect(designEffect(tallyOf([[1000, 10]]))).toBe(1);
  });

  it('grows when losses come in clumps: one batch in ten holds them all', () => {
    const clumped = tallyOf(Array.from({ length: 10 }, (_, index) => [1000, index === 0 ? 100 : 0]));
    // sum((lost - 0.01 × 1000)²) = 90² + 9 × 10²: variance 10/9 × 9000 / 10^8 = 1e-4, over 0.01 × 0.99 / 10^4.
    expect(designEffect(clumped)).toBeCloseTo(101.01, 2);
  });
});

describe('residualEstimate', () => {
  it('widens the interval of clumped losses and calls neither converged', () => {
    const even = residualEstimate(tallyOf(Array.from({ length: 10 }, () => [1000, 10])));
    const clumped = residualEstimate(tallyOf(Array.from({ length: 10 }, (_, index) => [1000, index === 0 ? 100 : 0])));
    expect(even.residualLoss).toBe(0.01);
    expect(clumped.residualLoss).toBe(0.01);
    expect(clumped.upper - clumped.lower).toBeGreaterThan(5 * (even.upper - even.lower));
    expect(even.converged).toBe(true);
    expect(clumped.converged).toBe(false);
  });

  it('does not call a point converged before enough batches, nor one where nothing was lost', () => {
    expect(residualEstimate(tallyOf([[1_000_000, 10_000]])).converged).toBe(false);
    const none = residualEstimate(tallyOf(Array.from({ length: 32 }, () => [1000, 0])));
    expect(none).toMatchObject({ residualLoss: 0, lower: 0, converged: false });
    expect(none.upper).toBeCloseTo(3.84 / 32_000, 5);
  });
});
