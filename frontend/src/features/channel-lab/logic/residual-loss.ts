import { createOwned } from '../../../lib/codec/create-owned';
import type { ChannelConfig, Codec } from '../../../lib/codec/types';

export interface ResidualLossConfig {
  /** A repair after every k source packets. */
  k: number;
  /** Each repair covers the last z source packets at most. */
  z: number;
  /** Time between two packets on the wire (sources and repairs alike), in ms. */
  packetMs: number;
  /** The channel model that decides which packets are lost. */
  channel: ChannelConfig;
  /** Source packets to send. */
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
 * Symbols this small keep the Monte-Carlo fast; the decoder's equations, and so which losses it
 * recovers, do not depend on the symbol size.
 */
const monteCarloSymbolBytes = 4;

/**
 * residualLoss sends `sources` source packets through the real encoder, channel and decoder with
 * the S(k,z) schedule and counts those the receiver neither receives nor rebuilds. The stream goes
 * on for z more sources, not counted, so that the last counted sources get as many repairs as the
 * others: a stream that stops dead would lose its tail for want of repairs, not to the channel.
 */
export function residualLoss(codec: Codec, config: ResidualLossConfig): ResidualLossResult {
  const { k, z, packetMs, sources } = config;
  const { encoder, decoder, channel } = createOwned((own) => ({
    encoder: own(codec.encoder({ symbolBytes: monteCarloSymbolBytes, k, z })),
    decoder: own(codec.decoder({ symbolBytes: monteCarloSymbolBytes, maxWindow: z })),
    channel: own(codec.channel(config.channel)),
  }));
  try {
    const symbol = new Uint8Array(monteCarloSymbolBytes);
    const view = new DataView(symbol.buffer);
    const delivered = new Uint8Array(sources);
    let packets = 0;
    let packetsLost = 0;
    const send = () => {
      const lost = channel.lost(Math.round(packets * packetMs * 1000));
      packets += 1;
      if (lost) packetsLost += 1;
      return !lost;
    };
    for (let sent = 0; sent < sources + z; sent += 1) {
      view.setUint32(0, sent);
      const { esi, repairDue } = encoder.addSource(symbol);
      if (send()) {
        decoder.addSource(esi, symbol);
        if (esi < sources) delivered[esi] = 1;
      }
      if (repairDue) {
        const repair = encoder.buildRepair();
        if (send()) decoder.addRepair(repair.id, repair.symbol);
        for (const rebuilt of decoder.takeRebuilt()) if (rebuilt.esi < sources) delivered[rebuilt.esi] = 1;
      }
    }
    const deliveredCount = delivered.reduce((total, flag) => total + flag, 0);
    return {
      k,
      sources,
      packets,
      channelLoss: packets === 0 ? 0 : packetsLost / packets,
      residualLoss: sources === 0 ? 0 : (sources - deliveredCount) / sources,
    };
  } finally {
    encoder.free();
    decoder.free();
    channel.free();
  }
}
