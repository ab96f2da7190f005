import { createOwned } from '../../../lib/codec/create-owned';
import type { Channel, ChannelConfig, Codec, Decoder, Encoder } from '../../../lib/codec/types';

export interface ResidualLossStreamConfig {
  /** A repair after every k source packets. */
  k: number;
  /** Each repair covers the last z source packets at most. */
  z: number;
  /** Time between two packets on the wire (sources and repairs alike), in ms. */
  packetMs: number;
  /** The channel model that decides which packets are lost. */
  channel: ChannelConfig;
}

export interface ResidualLossConfig extends ResidualLossStreamConfig {
  /** Source packets to count. */
  sources: number;
}

/** What one stretch of the stream did: its settled sources, and the packets sent meanwhile. */
export interface ResidualLossBatch {
  /** Source packets settled: received, rebuilt, or lost for good. */
  sources: number;
  /** Of those, the ones the receiver neither received nor rebuilt. */
  lost: number;
  /** Packets on the wire, sources and repairs, sent during the stretch. */
  packets: number;
  /** Of those, the ones the channel dropped. */
  packetsLost: number;
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
 * ResidualLossStream sends an endless stream of source packets through the real encoder, channel
 * and decoder with the S(k,z) schedule, and counts, a stretch at a time, the sources the receiver
 * neither receives nor rebuilds.
 *
 * A source is counted once the stream is 2z + 1 sources past it: the decoder keeps 2z ESIs behind
 * the newest one, so by then it has either rebuilt the source or given it up, and nothing that
 * follows can change that. Stretches are consecutive pieces of one stream, so the channel's state
 * carries over from one to the next, as it would on a link.
 *
 * A repair the channel drops, or whose window holds no source the receiver misses, cannot help the
 * decoder (its equation would read 0 = 0): the stream does not build it. That keeps the repair
 * schedule (a repair slot after every k sources) and skips most of the encoder's work on a good
 * channel; the repairs that are built take the encoder's next repair keys.
 */
export class ResidualLossStream {
  private readonly encoder: Encoder;
  private readonly decoder: Decoder;
  private readonly channel: Channel;
  private readonly symbol = new Uint8Array(monteCarloSymbolBytes);
  /** Sources are settled this far behind the next one to send. */
  private readonly settleLag: number;
  /** delivered[esi & mask]: 1 once the receiver holds source esi, for esi in [settled, sent). */
  private delivered = new Uint8Array(1024);
  private mask = 1023;
  /** Lost sources not yet known to be rebuilt, oldest first (from unknownHead on). */
  private unknowns: number[] = [];
  private unknownHead = 0;
  private sent = 0;
  private settled = 0;
  private sinceRepair = 0;
  private packets = 0;
  private packetsLost = 0;

  constructor(
    codec: Codec,
    private readonly config: ResidualLossStreamConfig,
  ) {
    const { k, z } = config;
    ({ encoder: this.encoder, decoder: this.decoder, channel: this.channel } = createOwned((own) => ({
      encoder: own(codec.encoder({ symbolBytes: monteCarloSymbolBytes, k, z })),
      decoder: own(codec.decoder({ symbolBytes: monteCarloSymbolBytes, maxWindow: z })),
      channel: own(codec.channel(config.channel)),
    })));
    this.settleLag = 2 * z + 1;
  }

  /** advance settles `sources` more source packets and says what became of them. */
  advance(sources: number): ResidualLossBatch {
    const packetsBefore = this.packets;
    const packetsLostBefore = this.packetsLost;
    const target = this.settled + sources;
    this.reserve(target + this.settleLag - this.settled);
    while (this.sent < target + this.settleLag) this.sendSource();
    let lost = 0;
    for (let esi = this.settled; esi < target; esi += 1) lost += 1 - this.delivered[esi & this.mask];
    this.settled = target;
    return { sources, lost, packets: this.packets - packetsBefore, packetsLost: this.packetsLost - packetsLostBefore };
  }

  free(): void {
    this.encoder.free();
    this.decoder.free();
    this.channel.free();
  }

  /** lose draws the channel's verdict on the next packet on the wire. */
  private lose(): boolean {
    const lost = this.channel.lost(Math.round(this.packets * this.config.packetMs * 1000));
    this.packets += 1;
    if (lost) this.packetsLost += 1;
    return lost;
  }

  private sendSource(): void {
    const esi = this.sent;
    this.sent += 1;
    this.encoder.addSource(this.symbol);
    const slot = esi & this.mask;
    if (this.lose()) {
      this.delivered[slot] = 0;
      this.unknowns.push(esi);
    } else {
      this.delivered[slot] = 1;
      this.decoder.addSource(esi, this.symbol);
    }
    this.sinceRepair += 1;
    if (this.sinceRepair === this.config.k) {
      this.sinceRepair = 0;
      this.sendRepair();
    }
  }

  private sendRepair(): void {
    if (this.lose() || !this.windowHasUnknown()) return;
    const repair = this.encoder.buildRepair();
    this.decoder.addRepair(repair.id, repair.symbol);
    for (const rebuilt of this.decoder.takeRebuilt()) {
      if (rebuilt.esi >= this.settled) this.delivered[rebuilt.esi & this.mask] = 1;
    }
  }

  /** windowHasUnknown says whether the receiver misses a source of the window a repair would cover now. */
  private windowHasUnknown(): boolean {
    const windowStart = this.sent - this.config.z;
    while (this.unknownHead < this.unknowns.length) {
      const oldest = this.unknowns[this.unknownHead];
      if (oldest >= windowStart && !this.delivered[oldest & this.mask]) {
        // Sources given up for good pile up at the front: drop them now and then.
        if (this.unknownHead > 4096) {
          this.unknowns = this.unknowns.slice(this.unknownHead);
          this.unknownHead = 0;
        }
        return true;
      }
      this.unknownHead += 1;
    }
    this.unknowns = [];
    this.unknownHead = 0;
    return false;
  }

  /** reserve grows the ring of delivered flags to hold `span` sources from the oldest unsettled one. */
  private reserve(span: number): void {
    if (span <= this.delivered.length) return;
    let size = this.delivered.length;
    while (size < span) size *= 2;
    const grown = new Uint8Array(size);
    for (let esi = this.settled; esi < this.sent; esi += 1) grown[esi & (size - 1)] = this.delivered[esi & this.mask];
    this.delivered = grown;
    this.mask = size - 1;
  }
}

/** residualLoss counts the residual loss of S(k,z) over `sources` source packets of one stream. */
export function residualLoss(codec: Codec, config: ResidualLossConfig): ResidualLossResult {
  const stream = new ResidualLossStream(codec, config);
  try {
    const batch = stream.advance(config.sources);
    return {
      k: config.k,
      sources: batch.sources,
      packets: batch.packets,
      channelLoss: batch.packets === 0 ? 0 : batch.packetsLost / batch.packets,
      residualLoss: batch.sources === 0 ? 0 : batch.lost / batch.sources,
    };
  } finally {
    stream.free();
  }
}
