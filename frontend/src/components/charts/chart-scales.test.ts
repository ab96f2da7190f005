import { describe, expect, it } from 'vitest';
import { nearestPoints, yDomain } from './chart-scales';

describe('yDomain', () => {
  it('reaches the minimum top while the values are tiny (the start of a run)', () => {
    expect(yDomain([0, 0.00008, 0.00002], 1)).toEqual([0, 1]);
  });

  it('follows the values above it, and starts at 0', () => {
    expect(yDomain([3, 11.6], 1)).toEqual([0, 11.6]);
  });

  it('goes below 0 for negative values, and is never empty', () => {
    expect(yDomain([-2, 4])).toEqual([-2, 4]);
    expect(yDomain([])).toEqual([0, 1]);
    expect(yDomain([0, 0])).toEqual([0, 1]);
  });
});

describe('nearestPoints', () => {
  const point = (t_s: number, value: number | null) => ({ t_s, value });
  const series = [
    { key: 'a', data: [point(0, 1), point(1, 2), point(2, null), point(3, 4)] },
    { key: 'b', data: [point(0.5, 7)] },
    { key: 'c', data: [point(1, null)] },
  ];

  it("gives each series' datum nearest to x, skipping gaps and empty series", () => {
    const nearest = nearestPoints(series, 2.2, (d) => d.t_s, (d) => d.value);
    expect(nearest).toEqual([
      { key: 'a', datum: point(3, 4) },
      { key: 'b', datum: point(0.5, 7) },
    ]);
  });
});
