import type { RunFidelity } from '../api/types';
import { formatNumber } from './run-format';

/**
 * What a run's fidelity evidence says in words: whether the path the run measured kept time, or
 * whether the host's load is in its figures too (the backend's satlab.engine.fidelity judges).
 */

export type FidelityVerdict = 'kept-up' | 'late' | 'unknown';

/** fidelityVerdict names the backend's verdict, of a run's evidence or a listed run: host_kept_up true, false or null. */
export const fidelityVerdict = ({ host_kept_up }: { host_kept_up?: boolean | null }): FidelityVerdict =>
  host_kept_up === true ? 'kept-up' : host_kept_up === false ? 'late' : 'unknown';

/** What a list says of a run whose host fell behind, where it has room for a few words only. */
export const hostLateNote =
  'The host did not keep up with this run: its figures measure the host’s load as much as the path (its page says by how much).';

/** fidelitySentence says what the verdict means for the run's figures. */
export function fidelitySentence(fidelity: RunFidelity): string {
  const limit = `${formatNumber(fidelity.lateness_p99_limit_ms, 1)} ms`;
  switch (fidelityVerdict(fidelity)) {
    case 'kept-up':
      return `The host kept up: the emulated path's lateness p99 stayed under ${limit} in every iteration, so the figures measure the path.`;
    case 'late':
      return `The host did not keep up: a lateness p99 reached ${limit}, so the figures measure this host's load as much as the path. Run it again on a quieter host.`;
    case 'unknown':
      return 'Whether the host kept up is unknown: nothing measured the emulated link’s lateness (a netem link, or no packet crossed it).';
  }
}

/** formatLateness prints a lateness p99 and maximum in ms, or a dash where nothing measured it. */
export const formatLateness = (p99: number | null | undefined, max: number | null | undefined) =>
  p99 === null || p99 === undefined ? '–' : `${formatNumber(p99, 3)} ms (max ${formatNumber(max, 1)} ms)`;
