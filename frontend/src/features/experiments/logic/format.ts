import type { CampaignSpec, FlowFigures, RunOrigin } from '../../../shared/runs';
import { formatValue } from './parameter-values';

/** How the console writes out its lists and campaigns (a run itself: the shared run-format). */

/** formatBytes spells a size out in bytes and in MiB, as the labs write them (20 MiB = 20971520 bytes). */
export const formatBytes = (bytes: number) => `${bytes.toLocaleString('en')} bytes = ${(bytes / 2 ** 20).toFixed(2)} MiB`;

/**
 * flowFigure sums up one figure of a run's flows for the runs list: the value of a lone flow, else
 * the mean and how many flows it covers; failed flows have none.
 */
export function flowFigure(flows: FlowFigures[], figure: 'download_time_s' | 'goodput_mbps', decimals: number): string {
  const values = flows.map((flow) => flow[figure]).filter((value): value is number => value !== null);
  if (values.length === 0) return '–';
  if (flows.length === 1) return values[0].toFixed(decimals);
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  return `${mean.toFixed(decimals)} (mean of ${values.length})`;
}

/** describeFlows sums up a finished run's flows by transport and congestion control (its first iteration). */
export function describeFlows(flows: FlowFigures[]): string {
  const counts = new Map<string, number>();
  for (const flow of flows.filter((candidate) => candidate.iteration === 0)) {
    const what = `${flow.transport} ${flow.cc}`;
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts].map(([what, count]) => (count === 1 ? what : `${count} × ${what}`)).join(', ') || '–';
}

/** formatChange prints a change with its sign (+10.9, -3.2), for a column whose header gives the unit; a dash where there is none. */
export const formatChange = (change: number | null, decimals = 1) =>
  change === null || !Number.isFinite(change) ? '–' : `${change > 0 ? '+' : ''}${change.toFixed(decimals)}`;

/** formatCount prints a count and its noun, in the plural but for one: 1 run, 4 runs. */
export const formatCount = (count: number, noun: string) => `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

/** describeCampaign says in a line what a campaign runs: its base scenario, fixed overrides, matrix and iterations. */
export function describeCampaign(spec: CampaignSpec): string {
  const base = typeof spec.scenario === 'string' ? spec.scenario : 'an inline scenario';
  const set = Object.entries(spec.set).map(([path, value]) => `${path}=${formatValue(value)}`);
  const matrix = Object.entries(spec.matrix).map(([path, values]) => `${path}: ${values.map(formatValue).join(', ')}`);
  return [
    base,
    set.length > 0 && `set ${set.join(', ')}`,
    matrix.length > 0 && `matrix ${matrix.join(' × ')}`,
    `${formatCount(spec.iterations, 'iteration')}, ${spec.parallel} at once, seed ${spec.seed}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Where a run may come from, as the runs list names it. */
const originNames: Record<RunOrigin['kind'], string> = {
  experiments: 'Experiments',
  sheet: 'Lab sheet',
  api: 'API',
  'command-line': 'Command line',
  campaign: 'Campaign',
  study: 'Study',
};

/** NOT_RECORDED is what the runs list says of a run queued before satlab recorded where runs come from. */
export const NOT_RECORDED = '—';

/**
 * describeOrigin says where a run came from, and the preset it ran: "Experiments: geo-ideal", "Lab
 * sheet fairness: geo-ideal", "Campaign cc: geo-optical", "Study petrou2022" (a scenario of its own
 * names no preset); NOT_RECORDED when the run does not say.
 */
export function describeOrigin(origin: RunOrigin | null): string {
  if (origin === null) return NOT_RECORDED;
  const where = origin.name === null ? originNames[origin.kind] : `${originNames[origin.kind]} ${origin.name}`;
  return origin.lab === null ? where : `${where}: ${origin.lab}`;
}

/** formatCreated shows a stored run's or campaign's creation time (unix seconds) in the reader's locale. */
export const formatCreated = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
