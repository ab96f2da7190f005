import type { ChannelConfig, Codec, DecoderStats, FecPath, RepairId } from '../../../lib/codec';
import { DecoderWindow, decoderWindowEsis } from './give-up-rule';
import { splitIntoSymbols } from './payload';

export interface FecRunConfig {
  /** A repair after every k source packets. */
  k: number;
  /** Each repair covers the last z source packets at most. */
  z: number;
  /** Bytes per symbol: each source packet carries one symbol of the payload. */
  symbolBytes: number;
  /** Time between two packets on the wire, in ms (time-driven channels lose by send time). */
  packetMs: number;
  /** The channel model that decides which packets are lost. */
  channel: ChannelConfig;
  /** The bytes to send, cut into source symbols. */
  payload: Uint8Array;
}

interface PacketOnWire {
  /** Position on the wire, from 0; the packet leaves at index * packetMs. */
  index: number;
  lost: boolean;
}

export interface SourcePacket extends PacketOnWire {
  kind: 'source';
  /** The source's Encoding Symbol ID, from 0. */
  esi: number;
}

export interface RepairPacket extends PacketOnWire {
  kind: 'repair';
  /** "R0", "R1"… in the order repairs are sent. */
  label: string;
  /** The repair's FEC payload ID: its window [firstEsi, firstEsi + nss - 1] and repair key. */
  id: RepairId;
  /** True for the repair sent after the last source, when fewer than k sources were left. */
  flush: boolean;
}

export type SentPacket = SourcePacket | RepairPacket;

/** What the receiver knows of one source symbol. */
export interface SourceFate {
  /** The source's ESI. */
  esi: number;
  /** Wire index of the source packet. */
  sentAt: number;
  /** given-up: the source left the decoder's window unrebuilt (give-up-rule.ts); it is lost for good. */
  state: 'received' | 'missing' | 'rebuilt' | 'given-up';
  /** Wire index of the packet whose arrival let the decoder rebuild it. */
  rebuiltAt?: number;
  /** Wire index of the packet after which the decoder gave it up. */
  givenUpAt?: number;
}

/** A snapshot of a run, for rendering. */
export interface FecRunView {
  packets: SentPacket[];
  /** Indexed by ESI, for the sources sent so far. */
  sources: SourceFate[];
  /** The receiver's symbol for each ESI: received or rebuilt by the codec; undefined while missing. */
  held: (Uint8Array | undefined)[];
  /** Source packets the payload takes. */
  sourceCount: number;
  /** Bytes per symbol. */
  symbolBytes: number;
  /** Packets the whole run sends: the sources and a repair per k of them, the last one a flush. */
  plannedPackets: number;
  /** The WebAssembly decoder's own counters. */
  decoder: DecoderStats;
  /** True once every source and the last repair are sent. */
  finished: boolean;
}

/**
 * FecRun sends a payload through the codec packet by packet: the encoder's S(k,z) schedule (plus a
 * last repair after the final source so the tail is covered), the channel's loss decision at each
 * send time, and the decoder's rebuilds. Each step sends exactly one packet, source or repair.
 */
export class FecRun {
  private readonly symbols: Uint8Array[];
  private readonly path: FecPath;
  private readonly packets: SentPacket[] = [];
  private readonly sources: SourceFate[] = [];
  private readonly held: (Uint8Array | undefined)[] = [];
  private repairDue = false;
  private sourcesSinceRepair = 0;
  private repairsSent = 0;
  private readonly decoderWindow: DecoderWindow;
  /** ESIs leaving the decoder's window with the packet being sent: those still missing are given up. */
  private leaving: number[] = [];

  constructor(
    codec: Codec,
    private readonly config: FecRunConfig,
  ) {
    this.symbols = splitIntoSymbols(config.payload, config.symbolBytes);
    this.path = codec.fecPath(config);
    this.decoderWindow = new DecoderWindow(decoderWindowEsis(config.z));
  }

  get finished(): boolean {
    return this.sources.length === this.symbols.length && this.sourcesSinceRepair === 0;
  }

  /** step sends the next packet and returns it, or returns undefined once the run is finished. */
  step(): SentPacket | undefined {
    if (this.finished) return undefined;
    const index = this.packets.length;
    const lost = this.path.channel.lost(Math.round(index * this.config.packetMs * 1000));
    const allSourcesSent = this.sources.length === this.symbols.length;
    const packet = this.repairDue || allSourcesSent ? this.sendRepair(index, lost) : this.sendSource(index, lost);
    this.packets.push(packet);
    for (const { esi, symbol } of this.path.decoder.takeRebuilt()) {
      this.sources[esi] = { ...this.sources[esi], state: 'rebuilt', rebuiltAt: index };
      this.held[esi] = symbol;
    }
    for (const esi of this.leaving) {
      if (this.sources[esi]?.state === 'missing') this.sources[esi] = { ...this.sources[esi], state: 'given-up', givenUpAt: index };
    }
    this.leaving = [];
    return packet;
  }

  view(): FecRunView {
    return {
      packets: [...this.packets],
      sources: [...this.sources],
      held: [...this.held],
      sourceCount: this.symbols.length,
      symbolBytes: this.config.symbolBytes,
      plannedPackets: this.symbols.length + Math.ceil(this.symbols.length / this.config.k),
      decoder: this.path.decoder.stats(),
      finished: this.finished,
    };
  }

  free(): void {
    this.path.free();
  }

  private sendSource(index: number, lost: boolean): SourcePacket {
    const symbol = this.symbols[this.sources.length];
    const { esi, repairDue } = this.path.encoder.addSource(symbol);
    this.repairDue = repairDue;
    this.sourcesSinceRepair += 1;
    this.sources[esi] = { esi, sentAt: index, state: lost ? 'missing' : 'received' };
    if (!lost) {
      this.leaving = this.decoderWindow.hear(esi, esi);
      this.path.decoder.addSource(esi, symbol);
      this.held[esi] = symbol;
    }
    return { kind: 'source', index, lost, esi };
  }

  private sendRepair(index: number, lost: boolean): RepairPacket {
    const { id, symbol } = this.path.encoder.buildRepair();
    const flush = !this.repairDue;
    this.repairDue = false;
    this.sourcesSinceRepair = 0;
    if (!lost) {
      this.leaving = this.decoderWindow.hear(id.firstEsi, id.firstEsi + id.nss - 1);
      this.path.decoder.addRepair(id, symbol);
    }
    const label = `R${this.repairsSent}`;
    this.repairsSent += 1;
    return { kind: 'repair', index, lost, label, id, flush };
  }
}

/** The lab's counters, from a snapshot. */
export interface FecCounters {
  sourcesSent: number;
  repairsSent: number;
  /** Source packets the channel dropped. */
  sourcesLost: number;
  /** Repair packets the channel dropped. */
  repairsLost: number;
  /** Lost sources the decoder rebuilt. */
  rebuilt: number;
  /** Lost sources the decoder may still rebuild. */
  missing: number;
  /** Lost sources that left the decoder's window unrebuilt. */
  givenUp: number;
  /** Sources missing or given up, over sources sent. */
  residualLoss: number;
  /** Repairs over all packets sent: 1/(k+1) for S(k,z). */
  overhead: number;
  /** From a lost source's send time to its rebuild, in ms; undefined before the first rebuild. */
  meanDecodingDelayMs?: number;
  maxDecodingDelayMs?: number;
}

export function fecCounters(view: FecRunView, packetMs: number): FecCounters {
  const sent = view.packets;
  const sourcesSent = view.sources.length;
  const repairsSent = sent.length - sourcesSent;
  const sourcesLost = sent.filter((packet) => packet.kind === 'source' && packet.lost).length;
  const repairsLost = sent.filter((packet) => packet.kind === 'repair' && packet.lost).length;
  const delaysMs = view.sources
    .filter((source) => source.rebuiltAt !== undefined)
    .map((source) => ((source.rebuiltAt ?? source.sentAt) - source.sentAt) * packetMs);
  const missing = view.sources.filter((source) => source.state === 'missing').length;
  const givenUp = view.sources.filter((source) => source.state === 'given-up').length;
  return {
    sourcesSent,
    repairsSent,
    sourcesLost,
    repairsLost,
    rebuilt: delaysMs.length,
    missing,
    givenUp,
    residualLoss: sourcesSent === 0 ? 0 : (missing + givenUp) / sourcesSent,
    overhead: sent.length === 0 ? 0 : repairsSent / sent.length,
    meanDecodingDelayMs: delaysMs.length === 0 ? undefined : delaysMs.reduce((a, b) => a + b, 0) / delaysMs.length,
    maxDecodingDelayMs: delaysMs.length === 0 ? undefined : Math.max(...delaysMs),
  };
}
