import { scaleBand, scaleLinear, scaleLog } from 'd3';
import { describe, expect, it } from 'vitest';
import { axisTicks, decades } from './axis-ticks';

describe('axisTicks', () => {
  it('places a linear scale’s own ticks and labels them with its format', () => {
    const scale = scaleLinear().domain([0, 10]).range([0, 100]);
    expect(axisTicks(scale, { numTicks: 2 })).toEqual([
      { value: 0, position: 0, label: '0' },
      { value: 5, position: 50, label: '5' },
      { value: 10, position: 100, label: '10' },
    ]);
  });

  it('keeps whole numbers only when asked', () => {
    const scale = scaleLinear().domain([1, 3]).range([0, 200]);
    expect(axisTicks(scale).some((tick) => !Number.isInteger(tick.value))).toBe(true);
    expect(axisTicks(scale, { wholeNumbers: true }).map((tick) => tick.value)).toEqual([1, 2, 3]);
  });

  it('draws given tick values with a given format', () => {
    const scale = scaleLog().domain([1e-3, 1]).range([300, 0]);
    const ticks = axisTicks(scale, { tickValues: decades(scale), tickFormat: (value: number) => `${value * 100} %` });
    expect(ticks.map((tick) => tick.label)).toEqual(['0.1 %', '1 %', '10 %', '100 %']);
    expect(ticks.map((tick) => Math.round(tick.position))).toEqual([300, 200, 100, 0]);
  });

  it('puts a band scale’s ticks at the middle of each band, labelled by its key', () => {
    const scale = scaleBand<string>().domain(['a', 'b']).range([0, 100]);
    expect(axisTicks(scale)).toEqual([
      { value: 'a', position: 25, label: 'a' },
      { value: 'b', position: 75, label: 'b' },
    ]);
    expect(axisTicks(scale, { tickFormat: (key: string) => key.toUpperCase() }).map((tick) => tick.label)).toEqual(['A', 'B']);
  });
});
