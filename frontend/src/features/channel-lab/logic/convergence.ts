import { formatPercent } from './format';
import type { ResidualPoint } from './residual-curve';
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
