import { describe, expect, it } from 'vitest';
import { boxStats, percentChange } from './statistics';

describe('boxStats', () => {
  it('gives quartiles interpolated between order statistics (R type 7), whatever the order', () => {
    expect(boxStats([4, 1, 3, 2])).toEqual({
      n: 4,
      min: 1,
      q1: 1.75,
      median: 2.5,
      q3: 3.25,
      max: 4,
      mean: 2.5,
      whiskerLow: 1,
      whiskerHigh: 4,
    });
    expect(boxStats([3.1, 2.8, 2.9])?.median).toBe(2.9);
  });

  it('ends the whiskers at the last value within 1.5 × IQR, leaving outliers beyond', () => {
    // q1 2.5, q3 4.5: IQR 2, the whiskers reach down to -0.5 and up to 7.5.
    const stats = boxStats([2, 3, 4, 5, 30]);
    expect(stats?.whiskerLow).toBe(2);
    expect(stats?.whiskerHigh).toBe(5);
    expect(stats?.max).toBe(30);
  });

  it('degrades to a single value, and to nothing', () => {
    expect(boxStats([3.2])).toMatchObject({ n: 1, q1: 3.2, median: 3.2, q3: 3.2, whiskerLow: 3.2, whiskerHigh: 3.2 });
    expect(boxStats([])).toBeNull();
  });
});

describe('percentChange', () => {
  it('gives the change in % of the baseline, signed', () => {
    expect(percentChange(3.3, 3)).toBeCloseTo(10);
    expect(percentChange(2.7, 3)).toBeCloseTo(-10);
    expect(percentChange(-1, -2)).toBeCloseTo(50);
  });

  it('has none without both figures or against a zero baseline', () => {
    expect(percentChange(null, 3)).toBeNull();
    expect(percentChange(3, null)).toBeNull();
    expect(percentChange(3, 0)).toBeNull();
  });
});
