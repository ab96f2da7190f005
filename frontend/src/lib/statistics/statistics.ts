import { ascending, quantileSorted } from 'd3';

/**
 * The order statistics of a sample that box plots and comparison tables show. Quartiles
 * interpolate linearly between order statistics (R's type 7, also numpy's and d3's default), so
 * that they match what a researcher recomputes from the CSV.
 */
export interface BoxStats {
  /** How many values. */
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  /** Tukey's whiskers: the most extreme values within 1.5 × IQR of the box. */
  whiskerLow: number;
  whiskerHigh: number;
}

/** boxStats sums up values (in any order); null for none. */
export function boxStats(values: readonly number[]): BoxStats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort(ascending);
  const q1 = quantileSorted(sorted, 0.25) as number;
  const q3 = quantileSorted(sorted, 0.75) as number;
  const reach = 1.5 * (q3 - q1);
  return {
    n: sorted.length,
    min: sorted[0],
    q1,
    median: quantileSorted(sorted, 0.5) as number,
    q3,
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((total, value) => total + value, 0) / sorted.length,
    whiskerLow: sorted.find((value) => value >= q1 - reach) as number,
    whiskerHigh: sorted.filter((value) => value <= q3 + reach).at(-1) as number,
  };
}

/**
 * percentChange is how much value differs from baseline, in % of the baseline: +10 means 10 %
 * more. null when either is unknown or the baseline is 0 (no ratio to speak of).
 */
export function percentChange(value: number | null, baseline: number | null): number | null {
  if (value === null || baseline === null || baseline === 0) return null;
  return ((value - baseline) / Math.abs(baseline)) * 100;
}
