import type { ChannelConfig, Codec } from '../../../lib/codec';

/** The figures libswf measures of a channel over a stream (swf_channel_stats). */
export type ChannelStats = ReturnType<Codec['measureChannel']>;

/** The stream of the statistics, in the native tool's units. */
export interface StatsStream {
  /** How long the channel runs, in s. */
  durationS: number;
  /** The stream's rate, in Mbit/s. */
  rateMbps: number;
  /** Bytes per packet. */
  packetBytes: number;
}

/** The lab's own limits, those of the backend's /api/channels/stats (backend/satlab/engine/channel_stats.py). */
export const statsLimits = {
  durationS: { min: 0.001, max: 3600 },
  rateMbps: { min: 0.001, max: 1e6 },
  packetBytes: { min: 1, max: 65535 },
  packets: 10_000_000,
} as const;

/** streamPackets is how many packets the stream sends in its duration. */
export function streamPackets(stream: StatsStream): number {
  return (stream.durationS * stream.rateMbps * 1e6) / (8 * stream.packetBytes);
}

/** measureStats runs libswf's swf_channel_measure in the page, for the stream in native units. */
export function measureStats(codec: Codec, channel: ChannelConfig, stream: StatsStream): ChannelStats {
  return codec.measureChannel(channel, {
    durationMs: stream.durationS * 1000,
    rateMbps: stream.rateMbps,
    packetBytes: stream.packetBytes,
  });
}

/** satlink's --channel names of the codec's kinds. */
const nativeKinds: Record<ChannelConfig['kind'], string> = {
  perfect: 'perfect',
  bernoulli: 'bernoulli',
  ge_packet: 'ge-packet',
  ge_time: 'ge-time',
  outage: 'outage',
  trace: 'trace',
};

/**
 * nativeChannelSpec writes a channel as satlink's and swf-channel's --channel (codec/README.md), with
 * its seed: numbers in JavaScript's shortest form, which the tools read back as the same doubles.
 * Undefined for a trace, which the tools read from a file.
 */
export function nativeChannelSpec(channel: ChannelConfig): string | undefined {
  if (channel.kind === 'trace') return undefined;
  const fields: [string, number][] = (() => {
    switch (channel.kind) {
      case 'perfect':
        return [];
      case 'bernoulli':
        return [['loss', channel.loss]];
      case 'ge_packet':
        return [['p', channel.p], ['q', channel.q], ['loss_good', channel.lossGood], ['loss_bad', channel.lossBad]];
      case 'ge_time':
        return [['p', channel.p], ['q', channel.q], ['step_ms', channel.stepMs]];
      case 'outage':
        return [
          ['period_ms', channel.periodMs],
          ['duration_ms', channel.durationMs],
          ['phase_ms', channel.phaseMs ?? 0],
          ['jitter_ms', channel.jitterMs ?? 0],
        ];
    }
  })();
  if (channel.kind === 'perfect') return 'perfect';
  const parameters = [...fields, ['seed', channel.seed] as const].map(([name, value]) => `${name}=${String(value)}`);
  return `${nativeKinds[channel.kind]}:${parameters.join(',')}`;
}

/** nativeCommand is the swf-channel command that prints the same figures, or undefined for a trace. */
export function nativeCommand(channel: ChannelConfig, stream: StatsStream): string | undefined {
  const spec = nativeChannelSpec(channel);
  if (spec === undefined) return undefined;
  return `swf-channel stats --channel ${spec} --duration-s ${stream.durationS} --rate-mbps ${stream.rateMbps} --packet-bytes ${stream.packetBytes}`;
}

/** burstBinLabels says what each bin of the histogram counts: "[10, 15) ms", "3 packets", "≥ 75 ms". */
export function burstBinLabels(stats: ChannelStats): string[] {
  const bins = stats.burstHistogram.length;
  const width = stats.burstBinWidth;
  return stats.burstHistogram.map((_, index) => {
    if (stats.burstUnit === 'packets') return index === bins - 1 ? `≥ ${bins} packets` : `${index + 1} packet${index === 0 ? '' : 's'}`;
    return index === bins - 1 ? `≥ ${index * width} ms` : `[${index * width}, ${(index + 1) * width}) ms`;
  });
}
