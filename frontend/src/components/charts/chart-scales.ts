/**
 * What a line chart computes before it draws: pure, so that tests can check it.
 */

/**
 * yDomain is the y extent of a chart of values: from 0 (or below, for negative values) to the
 * largest value, and at least to minimumTop, so that a series still near 0 (the first samples of
 * a run) does not stretch its noise over the whole chart with ticks such as 0.00008.
 */
export function yDomain(values: number[], minimumTop = 0): [number, number] {
  const low = Math.min(0, ...values);
  const high = Math.max(minimumTop, ...values);
  return [low, high > low ? high : low + 1];
}

/** A series as the y axis weighs it: unscaled says why it does not set the axis (undefined: it does). */
interface Weighed<Datum> {
  key: string;
  unscaled?: string;
  data: Datum[];
}

/** valuesOf are the data's y values, gaps left out. */
export const valuesOf = <Datum>(data: Datum[], y: (datum: Datum) => number | null) =>
  data.map(y).filter((value): value is number => value !== null);

/**
 * scaleValues are the values that set a chart's y axis: those of the series that set it, or every
 * series' when none of those has a value yet.
 */
export function scaleValues<Datum>(series: Weighed<Datum>[], y: (datum: Datum) => number | null): number[] {
  const scaled = series.filter((one) => one.unscaled === undefined).flatMap((one) => valuesOf(one.data, y));
  return scaled.length > 0 ? scaled : series.flatMap((one) => valuesOf(one.data, y));
}

/** peaksAbove gives, for each series that leaves the axis (its largest value above top), that value. */
export function peaksAbove<Datum>(series: Weighed<Datum>[], y: (datum: Datum) => number | null, top: number): Map<string, number> {
  const peaks = new Map<string, number>();
  for (const one of series) {
    const peak = Math.max(...valuesOf(one.data, y));
    if (peak > top) peaks.set(one.key, peak);
  }
  return peaks;
}

export interface NearestPoint<Datum> {
  key: string;
  datum: Datum;
}

/**
 * nearestPoints gives, for each series, its datum whose x is nearest to x (skipping data whose y
 * is null), for hover values; series with no such datum are left out.
 */
export function nearestPoints<Datum>(
  series: { key: string; data: Datum[] }[],
  x: number,
  xOf: (datum: Datum) => number,
  yOf: (datum: Datum) => number | null,
): NearestPoint<Datum>[] {
  return series.flatMap(({ key, data }) => {
    let best: Datum | undefined;
    for (const datum of data) {
      if (yOf(datum) === null) continue;
      if (best === undefined || Math.abs(xOf(datum) - x) < Math.abs(xOf(best) - x)) best = datum;
    }
    return best === undefined ? [] : [{ key, datum: best }];
  });
}

/** The width of a tick label of `characters` at fontPx in a proportional font, generously. */
export const labelWidth = (characters: number, fontPx: number) => Math.ceil(characters * fontPx * 0.62);
