import { describe, expect, it } from 'vitest';
import { nearestPoints, peaksAbove, scaleValues, yDomain } from './chart-scales';

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

describe('scaleValues and peaksAbove', () => {
  const value = (d: number | null) => d;
  const satellite = { key: 'satellite', data: [0, 9.7, null, 11.2] };
  const intake = { key: 'server', unscaled: 'bursts into the PEP', data: [146.3, 0, 92.6] };

  it('lets only the series that set the axis set it, and all of them while those have no value', () => {
    expect(scaleValues([satellite, intake], value)).toEqual([0, 9.7, 11.2]);
    expect(scaleValues([{ ...satellite, data: [null] }, intake], value)).toEqual([146.3, 0, 92.6]);
  });

  it('gives the peak of each series above the top, and nothing for the others', () => {
    expect(peaksAbove([satellite, intake], value, 12)).toEqual(new Map([['server', 146.3]]));
    expect(peaksAbove([satellite, intake, { key: 'empty', data: [] }], value, 150)).toEqual(new Map());
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
