import type { CampaignSpec, FlowSummary, Scenario } from '../api/types';
import { formatValue } from './parameter-values';

/** formatNumber prints a figure with a fixed number of decimals, or a dash where there is none. */
export const formatNumber = (value: number | null | undefined, decimals: number) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(decimals);

/** formatBytes spells a size out in bytes and in MiB, as the labs write them (20 MiB = 20971520 bytes). */
export const formatBytes = (bytes: number) => `${bytes.toLocaleString('en')} bytes = ${(bytes / 2 ** 20).toFixed(2)} MiB`;

/**
 * flowFigure sums up one figure of a run's flows for the runs list: the value of a lone flow, else
 * the mean and how many flows it covers; failed flows have none.
 */
export function flowFigure(flows: FlowSummary[], figure: 'download_time_s' | 'goodput_mbps', decimals: number): string {
  const values = flows.map((flow) => flow[figure]).filter((value): value is number => value !== null);
  if (values.length === 0) return '–';
  if (flows.length === 1) return values[0].toFixed(decimals);
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  return `${mean.toFixed(decimals)} (mean of ${values.length})`;
}

/** formatDuration prints seconds as s, or min and s from a minute on. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${(seconds - minutes * 60).toFixed(0).padStart(2, '0')} s`;
}

/** formatSize prints a transfer size compactly: bytes below 1 MiB, MiB above. */
export const formatSize = (bytes: number) =>
  bytes < 2 ** 20 ? `${bytes.toLocaleString('en')} bytes` : `${Number((bytes / 2 ** 20).toFixed(2))} MiB`;

/** describeScenario says in a line what a run runs: each flow group, then the FEC tunnel. */
export function describeScenario(scenario: Scenario): string {
  const groups = scenario.flows.map((group) => {
    const hystart = group.hystart === null ? '' : ` (Hystart ${group.hystart ? 'on' : 'off'})`;
    const amount = group.size_bytes !== null ? formatSize(group.size_bytes) : `${group.duration_s} s`;
    const upload = group.direction === 'upload' ? ' upload' : '';
    const start = group.start_s > 0 ? ` from ${group.start_s} s` : '';
    return `${group.count} × ${group.transport} ${group.cc}${hystart}, ${amount}${upload}${start}`;
  });
  const tunnel = scenario.tunnel ? `FEC S(${scenario.tunnel.k},${scenario.tunnel.z})` : 'no FEC tunnel';
  return [...groups, tunnel].join(' · ');
}

/** A satellite link direction's channel as the API gives it: a ge-time one given by its
 * measured statistics also carries the p and q the backend derived from them. */
interface ChannelOfPath {
  model?: string;
  [parameter: string]: unknown;
}

const percent = (fraction: number) => `${Number((fraction * 100).toPrecision(3))} %`;
const decimals = (value: number) => String(Number(value.toPrecision(3)));

/** describeForwardChannel says what the forward link's channel loses (null: a perfect one). */
export function describeForwardChannel(scenario: Scenario): string | null {
  const path = scenario.path as { forward?: { channel?: ChannelOfPath } } | undefined;
  const channel = path?.forward?.channel;
  if (!channel?.model || channel.model === 'perfect') return null;
  const { model } = channel;
  const number = (name: string) => (typeof channel[name] === 'number' ? (channel[name] as number) : null);
  const p = number('p');
  const q = number('q');
  const stepMs = number('step_ms');
  if (model === 'ge-time' && p !== null && q !== null && stepMs !== null) {
    const measured = number('loss_time_ratio');
    const burstMs = number('mean_burst_ms');
    const rule = `p ${decimals(p)}, q ${decimals(q)} per ${stepMs} ms step`;
    return measured !== null && burstMs !== null
      ? `Forward channel: Gilbert-Elliott in time, ${percent(measured)} of the time lost in bursts of ${burstMs} ms on average (${rule}, derived)`
      : `Forward channel: Gilbert-Elliott in time, ${rule}`;
  }
  if (model === 'outage') return `Forward channel: an outage of ${number('duration_ms')} ms every ${number('period_ms')} ms`;
  if (model === 'bernoulli') return `Forward channel: ${percent(number('loss') ?? 0)} of packets lost at random`;
  return `Forward channel: ${model}`;
}

/** describeFlows sums up a finished run's flows by transport and congestion control (its first iteration). */
export function describeFlows(flows: FlowSummary[]): string {
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

/** formatCreated shows a stored run's or campaign's creation time (unix seconds) in the reader's locale. */
export const formatCreated = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
