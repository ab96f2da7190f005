import type { Scenario, TimedOut } from '../api/types';

/** How a run is written out wherever it shows: its figures, durations, sizes, scenario and channel. */

/** formatNumber prints a figure with a fixed number of decimals, or a dash where there is none. */
export const formatNumber = (value: number | null | undefined, decimals: number) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(decimals);

/** formatDuration prints seconds as s, or min and s from a minute on. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${(seconds - minutes * 60).toFixed(0).padStart(2, '0')} s`;
}

/** formatSize prints a transfer size compactly: bytes below 1 MiB, MiB above. */
export const formatSize = (bytes: number) =>
  bytes < 2 ** 20 ? `${bytes.toLocaleString('en')} bytes` : `${Number((bytes / 2 ** 20).toFixed(2))} MiB`;

/**
 * describeTimeLimit says what a run its time limit stopped had done: each flow's least download
 * time (it was still sending) and how far it had got, or that it had finished.
 */
export function describeTimeLimit({ iteration, limit_s, flows }: TimedOut): string {
  const each = flows.map((flow) => {
    const name = `flow ${flow.flow} (${flow.direction})`;
    if (flow.finished) return `${name} had finished`;
    const acked = flow.bytes_acked === null ? '' : `, ${formatSize(flow.bytes_acked)} acknowledged`;
    const sending = flow.download_time_at_least_s === null ? 'had not started' : `takes at least ${formatDuration(flow.download_time_at_least_s)}`;
    return `${name} ${sending}${acked}`;
  });
  return `Stopped at its time limit of ${formatDuration(limit_s)} in iteration ${iteration}: ${each.join('; ')}.`;
}

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
