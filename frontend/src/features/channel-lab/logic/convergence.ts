import { formatPercent } from './format';
import { type ResidualPoint, workerSeed, workerSeedStep } from './residual-curve';
import { convergedHalfWidth, residualEstimate } from './residual-interval';

/**
 * convergenceNote says in a sentence or two whether the curve can be trusted: which points' 95 %
 * intervals are still wider than ±20 % of their value, and for the points that lost nothing, the
 * residual loss they cannot rule out. final is true once no more samples will come.
 */
export function convergenceNote(points: ResidualPoint[], final: boolean): string {
  const estimates = points
    .filter((point) => point.sources > 0)
    .map((point) => ({ k: point.k, sources: point.sources, ...residualEstimate(point) }));
  const percent = Math.round(convergedHalfWidth * 100);
  const wide = estimates.filter((estimate) => estimate.residualLoss > 0 && !estimate.converged);
  const none = estimates.filter((estimate) => estimate.residualLoss === 0);
  const sentences: string[] = [];
  if (wide.length === 0) {
    sentences.push(
      none.length === estimates.length
        ? 'No point lost anything yet.'
        : `Converged: every 95 % interval lies within ±${percent} % of its point.`,
    );
  } else {
    const ks = wide.map((estimate) => estimate.k).join(', ');
    sentences.push(
      `${final ? 'Not converged' : 'Not converged yet'}: the 95 % interval${wide.length > 1 ? 's' : ''} of k = ${ks} ` +
        `${wide.length > 1 ? 'are' : 'is'} wider than ±${percent} % of the point; more source packets per k narrow them.`,
    );
  }
  if (none.length > 0) {
    const upper = Math.max(...none.map((estimate) => estimate.upper));
    sentences.push(
      `Nothing lost for k = ${none.map((estimate) => estimate.k).join(', ')}: their residual loss is below ` +
        `${formatPercent(upper)} (95 %), the least these sources can tell apart from 0.`,
    );
  }
  return sentences.join(' ');
}

/**
 * samplingNote says how the Web Workers shared the samples, so that a reader can reproduce the
 * curve: each counted its own stretch of every k's stream, and drew the channel with its own seed
 * (seed undefined: a model without random draws).
 */
export function samplingNote(workers: number, seed: number | undefined): string {
  if (workers <= 1) return 'Counted in one Web Worker, over one stream per k.';
  const seeds = Array.from({ length: workers }, (_, worker) => workerSeed(seed ?? 0, worker).toLocaleString('en'));
  return (
    `Counted by ${workers} Web Workers, one per core: each over its own stretch of every k's stream, ` +
    `its packets sent at the times they would be in one long stream` +
    (seed === undefined
      ? '.'
      : `, worker i drawing the channel with seed ${seed} + i × ${workerSeedStep} (mod 2³²): ${seeds.join(', ')}.`) +
    ` The same settings give the same curve wherever ${workers} workers count it.`
  );
}
