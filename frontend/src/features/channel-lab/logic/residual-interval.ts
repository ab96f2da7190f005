/**
 * How sure a Monte-Carlo residual loss is. Losses on a bursty channel come in clumps, so the
 * sources of one run are far from independent draws and a plain binomial interval would be too
 * narrow. The run is therefore counted in consecutive stretches (batches); the spread of their
 * loss rates measures the real variance of the estimate (batch means), and the Wilson score
 * interval is taken on the effective number of sources that variance implies.
 */

/** A point's tally: sources settled and lost, in batches. */
export interface BatchTally {
  /** Sources counted, over all batches. */
  sources: number;
  /** Of those, the ones neither received nor rebuilt. */
  lost: number;
  /** Batches counted. */
  batches: number;
  /** Sums over the batches of lost², lost × sources and sources², for the batch-means variance. */
  lostSquares: number;
  lostTimesSources: number;
  sourceSquares: number;
}

export interface ResidualEstimate {
  /** Lost over counted sources. */
  residualLoss: number;
  /** The 95 % interval's bounds. */
  lower: number;
  upper: number;
  /** True once the interval is within ±20 % of the estimate, over enough batches to trust its width. */
  converged: boolean;
}

/** The normal quantile of a two-sided 95 % interval. */
const z95 = 1.959964;
/** Batches needed before their spread says anything about the estimate's variance. */
export const minBatchesForSpread = 8;
/** An estimate has converged once its 95 % interval lies within this fraction of it, either side. */
export const convergedHalfWidth = 0.2;

export const emptyTally: BatchTally = { sources: 0, lost: 0, batches: 0, lostSquares: 0, lostTimesSources: 0, sourceSquares: 0 };

/** addTallies adds two tallies of the same point, counted apart (by two workers, say). */
export function addTallies(a: BatchTally, b: BatchTally): BatchTally {
  return {
    sources: a.sources + b.sources,
    lost: a.lost + b.lost,
    batches: a.batches + b.batches,
    lostSquares: a.lostSquares + b.lostSquares,
    lostTimesSources: a.lostTimesSources + b.lostTimesSources,
    sourceSquares: a.sourceSquares + b.sourceSquares,
  };
}

/** addBatch adds one batch of `sources` sources with `lost` of them lost to a tally. */
export function addBatch(tally: BatchTally, sources: number, lost: number): BatchTally {
  const batch = { sources, lost, batches: 1, lostSquares: lost * lost, lostTimesSources: lost * sources, sourceSquares: sources * sources };
  return addTallies(tally, batch);
}

/** wilsonInterval is the 95 % Wilson score interval of `lost` out of `trials` (trials may be fractional). */
export function wilsonInterval(lost: number, trials: number): [number, number] {
  if (trials <= 0) return [0, 1];
  const rate = lost / trials;
  const z2 = z95 * z95;
  const centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z95 * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  // Exactly 0 and 1 where nothing, or everything, was lost: rounding would leave 1e-21.
  return [lost <= 0 ? 0 : Math.max(0, centre - half), lost >= trials ? 1 : Math.min(1, centre + half)];
}

/**
 * designEffect is how many times the batch means' variance of the estimate exceeds the binomial
 * one (at least 1): the ratio-estimator variance sum((lost_i - p n_i)²) m / ((m - 1) N²) over
 * p (1 - p) / N. With fewer than two batches, or no loss seen, there is no spread to go by: 1.
 */
export function designEffect(tally: BatchTally): number {
  const { sources, lost, batches } = tally;
  const rate = sources === 0 ? 0 : lost / sources;
  if (batches < 2 || rate === 0 || rate === 1) return 1;
  const squares = tally.lostSquares - 2 * rate * tally.lostTimesSources + rate * rate * tally.sourceSquares;
  const variance = (batches / (batches - 1)) * (Math.max(0, squares) / (sources * sources));
  return Math.max(1, variance / ((rate * (1 - rate)) / sources));
}

/** residualEstimate is a tally's residual loss with its 95 % interval. */
export function residualEstimate(tally: BatchTally): ResidualEstimate {
  const residualLoss = tally.sources === 0 ? 0 : tally.lost / tally.sources;
  const effectiveSources = tally.sources / designEffect(tally);
  const [lower, upper] = wilsonInterval(residualLoss * effectiveSources, effectiveSources);
  const converged =
    tally.batches >= minBatchesForSpread && residualLoss > 0 && (upper - lower) / 2 <= convergedHalfWidth * residualLoss;
  return { residualLoss, lower, upper, converged };
}
