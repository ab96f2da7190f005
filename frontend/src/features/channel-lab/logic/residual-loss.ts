import type { ChannelConfig, Codec } from '../../../lib/codec';

export interface ResidualLossConfig {
  /** A repair after every k source packets. */
  k: number;
  /** Each repair covers the last z source packets at most. */
  z: number;
  /** Time between two packets on the wire (sources and repairs alike), in ms. */
  packetMs: number;
  /** The channel model that decides which packets are lost. */
  channel: ChannelConfig;
  /** Source packets to count. */
  sources: number;
}

export interface ResidualLossResult {
  k: number;
  /** Source packets counted. */
  sources: number;
  /** Packets on the wire, sources and repairs, the uncounted tail included. */
  packets: number;
  /** Fraction of all packets the channel lost. */
  channelLoss: number;
  /** Fraction of sources neither received nor rebuilt. */
  residualLoss: number;
}

/**
 * residualLoss counts the residual loss of S(k,z) over `sources` source packets of one stream: the
 * codec's own Monte-Carlo (swf_residual in codec/include/swf.h), where the real encoder, channel and
 * decoder run packet by packet inside WebAssembly, and a source counts once the decoder has let it go.
 */
export function residualLoss(codec: Codec, { sources, ...config }: ResidualLossConfig): ResidualLossResult {
  const stream = codec.residualStream(config);
  try {
    const counts = stream.advance(sources);
    return {
      k: config.k,
      sources: counts.sources,
      packets: counts.packets,
      channelLoss: counts.packets === 0 ? 0 : counts.packetsLost / counts.packets,
      residualLoss: counts.sources === 0 ? 0 : counts.lost / counts.sources,
    };
  } finally {
    stream.free();
  }
}
