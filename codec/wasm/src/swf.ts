// swf.ts - a typed wrapper of libswf compiled to WebAssembly (build/wasm/swf.mjs).
//
// The public types are interfaces; the classes behind them are private to this
// file, so that nothing outside can construct one around a stale pointer.
// Each encoder, decoder and channel owns memory inside the WebAssembly
// instance, which JavaScript's garbage collector cannot see: call free() when
// done with one. Byte arrays going in are copied into the instance, and byte
// arrays coming out are fresh copies the caller owns.

import createSwfModule, { type SwfModule } from './swf.mjs';

/** Status codes of libswf (enum swf_status in codec/include/swf.h). */
export const SwfStatus = {
  OK: 0,
  INVALID: -1,
  NOMEM: -2,
  MALFORMED: -3,
  RANGE: -4,
} as const;

/** Thrown by every failed call, with libswf's status and, for an invalid
 * config or argument, the name of the field at fault. */
export class SwfError extends Error {
  /** One of the negative SwfStatus values. */
  readonly status: number;
  /** The config field or argument at fault, camelCase, if one is. */
  readonly field: string | undefined;

  constructor(message: string, status: number, field?: string) {
    super(message);
    this.name = 'SwfError';
    this.status = status;
    this.field = field;
  }
}

/** The Repair FEC Payload ID of RFC 8681 (section 4.1.1). */
export interface RepairId {
  /** Seeds the coding coefficients, 0..65535. */
  repairKey: number;
  /** Density threshold, 0..15 (15: every coefficient non-zero). */
  dt: number;
  /** Source symbols in the encoding window, 1..4095. */
  nss: number;
  /** ESI of the window's first source symbol, 0..2^32-1. */
  firstEsi: number;
}

export interface EncoderConfig {
  /** Bytes per symbol, 1..65535; shorter sources are zero-padded. */
  symbolBytes: number;
  /** A repair is due after every k sources, k >= 1. */
  k: number;
  /** The encoding window holds at most z sources, 1..4095. */
  z: number;
  /** Density threshold, 0..15; default 15 (dense). */
  dt?: number;
  /** ESI of the first source symbol; default 0. */
  firstEsi?: number;
  /** Repair keys count up from here; default 0. */
  firstRepairKey?: number;
}

export interface DecoderConfig {
  /** Bytes per symbol, 1..65535. */
  symbolBytes: number;
  /** The largest NSS accepted, 1..4095 (e.g. the encoder's z). */
  maxWindow: number;
  /** ESIs kept behind the newest one, >= maxWindow, rounded up to a power of two; default 2 * maxWindow. */
  windowCapacity?: number;
}

/** Counters of a decoder (swf_decoder_stats). */
export interface DecoderStats {
  /** Distinct source symbols received. */
  sources: number;
  /** Valid repair symbols received. */
  repairs: number;
  /** Repairs that added an equation. */
  usefulRepairs: number;
  /** Source symbols rebuilt. */
  rebuilt: number;
  /** Unknown ESIs that left the window unrebuilt. */
  givenUp: number;
  /** Sources already known, and stale symbols. */
  duplicates: number;
  /** Calls that failed. */
  rejected: number;
  /** Equations held now. */
  equations: number;
  /** Unknown ESIs held in the window now. */
  unknowns: number;
  /** Bytes allocated now. */
  memoryBytes: number;
  /** The most bytes allocated at once. */
  peakMemoryBytes: number;
}

/** Packets sent in [startMs, endMs) are lost. */
export interface LossInterval {
  startMs: number;
  endMs: number;
}

/** A channel model (swf_channel_config). Probabilities are in [0, 1]; models
 * that draw random numbers take an explicit seed (0..2^32-1). */
export type ChannelConfig =
  /** Loses nothing. */
  | { kind: 'perfect' }
  /** Loses each packet with probability loss. */
  | { kind: 'bernoulli'; seed: number; loss: number }
  /** Gilbert-Elliott, one transition per packet (p: good to bad, q: bad to
   * good), losing a packet with lossGood or lossBad by state. */
  | { kind: 'ge_packet'; seed: number; p: number; q: number; lossGood: number; lossBad: number }
  /** Gilbert-Elliott in time: the state is drawn again every stepMs, and
   * everything sent during a bad step is lost. */
  | { kind: 'ge_time'; seed: number; p: number; q: number; stepMs: number }
  /** Outage n covers [phaseMs + n * periodMs + j, ... + durationMs), with j
   * uniform in [0, jitterMs). */
  | { kind: 'outage'; seed: number; periodMs: number; durationMs: number; phaseMs?: number; jitterMs?: number }
  /** Replays sorted, non-overlapping loss intervals, repeating every
   * tracePeriodMs if that is above 0. */
  | { kind: 'trace'; intervals: readonly LossInterval[]; tracePeriodMs?: number };

export type ChannelKind = ChannelConfig['kind'];

/** How a packet's fate is decided from a time-based model (swf_loss_rule):
 * at the start of its serialisation, or by the overlap of its time on the
 * air with lost time. */
export type LossRule = 'start' | 'overlap';

/** A constant-rate stream through a channel (swf_stream): packet i is sent
 * at floor(i * packetBytes * 8 / rateMbps) microseconds, before durationMs. */
export interface Stream {
  /** How long the channel runs, in ms: above 0, at most 1e12. */
  durationMs: number;
  /** The stream's rate in Mbit/s: above 0, at most 1e6. */
  rateMbps: number;
  /** Bytes per packet, 1..2^32-1. */
  packetBytes: number;
  /** Default 'start'. By 'overlap', packet i is on the air for
   * ceil(packetBytes * 8 / linkRateMbps) microseconds from its send time. */
  lossRule?: LossRule;
  /** The rate of the link the stream crosses, from rateMbps to 1e6; default
   * (or 0) rateMbps: packets back to back. */
  linkRateMbps?: number;
}

/** What a channel does over a stream's duration (swf_channel_stats). */
export interface ChannelStats {
  /** Whether the model decides by time (perfect, ge_time, outage, trace);
   * a per-packet model (bernoulli, ge_packet) loses packets, not time. */
  timeBased: boolean;
  durationUs: number;
  /** Time during which a packet sent is lost (0 for a per-packet model). */
  lostUs: number;
  /** lostUs / durationUs; null for a per-packet model. */
  timeLostRatio: number | null;
  packets: number;
  packetsLost: number;
  packetLossRatio: number;
  /** Bursts (maximal runs of loss) are measured in ms of time, or in
   * packets of the stream for a per-packet model. */
  burstUnit: 'ms' | 'packets';
  bursts: number;
  burstMin: number;
  burstMean: number;
  burstMax: number;
  /** Bin i counts bursts in [i * burstBinWidth, (i + 1) * burstBinWidth) ms,
   * or of i + 1 packets; the last bin also every longer burst. */
  burstHistogram: number[];
  burstBinWidth: number;
}

/** The sliding-window encoder: S(k, z). */
export interface Encoder {
  readonly symbolBytes: number;
  /** Adds a source symbol of at most symbolBytes bytes (zero-padded); says
   * its ESI and whether the schedule wants a repair symbol now. */
  addSource(bytes: Uint8Array): { esi: number; repairDue: boolean };
  /** Builds a repair symbol over the current window; allowed at any time
   * after the first source (a flush), restarting the count to the next. */
  buildRepair(): { id: RepairId; symbol: Uint8Array };
  /** Releases the encoder's memory; later calls throw. */
  free(): void;
}

/** The decoder: takes source and repair symbols in any order and rebuilds
 * each lost source symbol as soon as the symbols received determine it. */
export interface Decoder {
  readonly symbolBytes: number;
  /** Gives the decoder a source symbol of exactly symbolBytes bytes. */
  addSource(esi: number, bytes: Uint8Array): void;
  /** Gives the decoder a repair symbol of exactly symbolBytes bytes. */
  addRepair(id: RepairId, bytes: Uint8Array): void;
  /** The source symbols rebuilt since the last call, in the order they
   * were rebuilt. */
  takeRebuilt(): { esi: number; symbol: Uint8Array }[];
  stats(): DecoderStats;
  /** Releases the decoder's memory; later calls throw. */
  free(): void;
}

/** A channel model deciding packet by packet whether a packet is lost. */
export interface Channel {
  readonly kind: ChannelKind;
  /** Whether a packet sent at tUs (microseconds, an integer; time does not
   * go backwards) is lost. */
  lost(tUs: number): boolean;
  /** Whether a packet on the air during [startUs, endUs) is lost by overlap
   * (swf_channel_lost_during): a time-based model loses it if it loses any
   * microsecond of it, a per-packet model decides as lost(startUs);
   * endUs <= startUs is the instant startUs. */
  lostDuring(startUs: number, endUs: number): boolean;
  /** Releases the channel's memory; later calls throw. */
  free(): void;
}

/** The two ends of one FEC stream and the channel between them. */
export interface FecPathConfig {
  /** Bytes per symbol, 1..65535. */
  symbolBytes: number;
  /** S(k, z): a repair after every k sources, over the last z. */
  k: number;
  z: number;
  channel: ChannelConfig;
}

/** An S(k, z) encoder, a decoder for its stream, and the channel between
 * them: what a sender, a link and a receiver hold. */
export interface FecPath {
  readonly encoder: Encoder;
  readonly decoder: Decoder;
  readonly channel: Channel;
  /** Releases all three. */
  free(): void;
}

/** A residual-loss Monte-Carlo (swf_residual_config). */
export interface ResidualStreamConfig {
  /** S(k, z): a repair after every k sources (1..65535), over the last z
   * (1..4095). */
  k: number;
  z: number;
  /** Time between two packets on the wire, in ms, at least 0. */
  packetMs: number;
  /** Packet n of the stream is sent at (firstPacket + n) * packetMs: a
   * stream that goes on where another's packets would end. Default 0. */
  firstPacket?: number;
  channel: ChannelConfig;
}

/** What became of a stretch of sources (swf_residual_counts). */
export interface ResidualCounts {
  /** Sources settled. */
  sources: number;
  /** Of those, neither received nor rebuilt. */
  lost: number;
  /** Packets on the wire, sources and repairs, sent meanwhile. */
  packets: number;
  /** Of those, dropped by the channel. */
  packetsLost: number;
  /** Sources the decoder rebuilt meanwhile, with the bytes sent. */
  rebuilt: number;
  /** Sources rebuilt with other bytes than those sent: 0 unless the decoder
   * is wrong. */
  rebuiltWrong: number;
}

/** One endless stream of S(k, z) through the encoder, the channel and the
 * decoder, counted a stretch at a time, all inside WebAssembly. */
export interface ResidualStream {
  /** Settles `sources` more sources of the stream and says what became of
   * them; the channel's state carries over from one stretch to the next. */
  advance(sources: number): ResidualCounts;
  /** Releases the stream's memory; later calls throw. */
  free(): void;
}

/** libswf, loaded. Objects it creates must be released with free(). */
export interface Swf {
  /** The GF(2^8) kernel in use: "simd128", or "scalar" without SIMD. */
  gfKernel(): string;
  /** The nss coding coefficients RFC 8681 derives from repairKey and dt. */
  coefficients(repairKey: number, dt: number, nss: number): Uint8Array;
  /** The 8-byte Repair FEC Payload ID of id, in network byte order. */
  writeRepairId(id: RepairId): Uint8Array;
  /** Parses a Repair FEC Payload ID from the first 8 bytes. */
  readRepairId(bytes: Uint8Array): RepairId;
  encoder(config: EncoderConfig): Encoder;
  decoder(config: DecoderConfig): Decoder;
  channel(config: ChannelConfig): Channel;
  /** An encoder, a decoder and a channel for one stream; if one of them is
   * refused, those already made are released before the error goes on. */
  fecPath(config: FecPathConfig): FecPath;
  /** The residual loss of S(k, z) over a channel, by Monte-Carlo: see
   * swf_residual in swf.h. */
  residualStream(config: ResidualStreamConfig): ResidualStream;
  /** Runs a fresh channel of this config (its seed included) for the
   * stream's duration and measures it: the same figures as swf-channel
   * stats for the same config and stream. */
  measureChannel(config: ChannelConfig, stream: Stream): ChannelStats;
}

export interface LoadOptions {
  /** The bytes of swf.wasm, instead of fetching them (node has no fetch of
   * file URLs: pass fs.readFileSync('build/wasm/swf.wasm')). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Maps 'swf.wasm' to the URL to fetch it from; by default it is found
   * next to swf.mjs. */
  locateFile?: (path: string, scriptDirectory: string) => string;
}

/** Loads and instantiates the WebAssembly module. */
export async function loadSwf(options: LoadOptions = {}): Promise<Swf> {
  // The emscripten factory adopts the object it is given as its Module:
  // hand it a copy, not the caller's.
  return new WasmSwf(new Runtime(await createSwfModule({ ...options })));
}

const UINT16_MAX = 0xffff;
const UINT32_MAX = 0xffffffff;
const REPAIR_ID_BYTES = 8; // SWF_REPAIR_ID_BYTES
const LOSS_INTERVAL_BYTES = 16; // swf_loss_interval: two doubles
const CHANNEL_KIND_CODES: Record<ChannelKind, number> = {
  perfect: 0,
  bernoulli: 1,
  ge_packet: 2,
  ge_time: 3,
  outage: 4,
  trace: 5,
};
// What each config field allows, in swf.h's words, for error messages.
const PROBABILITY = 'a probability from 0 to 1';
const ALLOWED_VALUES: Record<string, string> = {
  symbolBytes: 'an integer from 1 to 65535',
  k: 'an integer from 1 to 65535',
  z: 'an integer from 1 to 4095',
  dt: 'an integer from 0 to 15',
  firstRepairKey: 'an integer from 0 to 65535',
  maxWindow: 'an integer from 1 to 4095',
  windowCapacity: '0 (twice maxWindow) or an integer from maxWindow to 65536',
  loss: PROBABILITY,
  p: PROBABILITY,
  q: PROBABILITY,
  lossGood: PROBABILITY,
  lossBad: PROBABILITY,
  stepMs: 'a time of at least 0.001 ms',
  periodMs: 'a time of at least 0.001 ms',
  durationMs: 'a time from 0 to periodMs',
  phaseMs: 'a time of at least 0 ms',
  jitterMs: 'a time from 0 to periodMs - durationMs',
  intervals: 'a list in time order, not overlapping, each with 0 <= startMs < endMs',
  tracePeriodMs: '0 (no repetition) or a time of at least the last endMs',
  packetMs: 'a time from 0 to 1e12 ms',
  // A stream's fields, where a name is also a channel's.
  'stream.durationMs': 'a time above 0 ms, at most 1e12 ms',
  rateMbps: 'a rate above 0, at most 1e6 Mbit/s',
  packetBytes: 'an integer of at least 1',
  lossRule: '"start" or "overlap"',
  linkRateMbps: '0 (the stream\'s rate) or a rate from rateMbps to 1e6 Mbit/s',
};
// swf_loss_rule's values.
const LOSS_RULES: Record<LossRule, number> = { start: 0, overlap: 1 };
// Out-parameters of one call at a time: an invalid field's name at +4, and
// a row of doubles (at most 27: channel stats) from +8.
const SCRATCH_BYTES = 256;
const SCRATCH_DOUBLES_OFFSET = 8;
const CHANNEL_BURST_BIN_MS = 5; // SWF_CHANNEL_BURST_BIN_MS
// The rows results come back in (glue.c's enum swfw_row).
const ROWS = { decoderStats: 0, channelStats: 1, residualCounts: 2 } as const;
type RowName = keyof typeof ROWS;

/** A row of doubles as glue.c lays it out: each field's first value and count. */
type RowLayout = ReadonlyMap<string, { readonly offset: number; readonly count: number }>;

function parseRowLayout(text: string): RowLayout {
  const layout = new Map<string, { offset: number; count: number }>();
  let offset = 0;
  for (const field of text.split(',').filter(Boolean)) {
    const [name, count = '1'] = field.split(':');
    layout.set(name!, { offset, count: Number(count) });
    offset += Number(count);
  }
  return layout;
}

/** One result row, read by field name (glue.c's), never by position. */
class Row {
  readonly #layout: RowLayout;
  readonly #values: Float64Array;
  readonly #row: RowName;

  constructor(row: RowName, layout: RowLayout, values: Float64Array) {
    this.#row = row;
    this.#layout = layout;
    this.#values = values;
  }

  #field(name: string) {
    const field = this.#layout.get(name);
    if (field === undefined) {
      throw new Error(`libswf's ${this.#row} row has no field ${name}: the wrapper and glue.c disagree.`);
    }
    return field;
  }

  get(name: string): number {
    return this.#values[this.#field(name).offset]!;
  }

  all(name: string): number[] {
    const { offset, count } = this.#field(name);
    return Array.from(this.#values.subarray(offset, offset + count));
  }
}

function camelCase(snakeCase: string): string {
  return snakeCase.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Checks a number JavaScript will hand WebAssembly as an unsigned integer,
 * which would otherwise wrap or truncate silently. role says what field is:
 * a config's field or a method's argument. */
function requireUint(value: number, max: number, role: 'field' | 'argument', field: string,
  context: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new SwfError(
      `${context}: ${role} ${field} is ${value}; it must be an integer from 0 to ${max}.`,
      SwfStatus.INVALID,
      field,
    );
  }
}

/** The instance, its scratch memory for out-parameters, and copies in and out. */
class Runtime {
  readonly wasm: SwfModule;
  readonly scratch: number;
  readonly #rowLayouts: Record<RowName, RowLayout>;

  constructor(wasm: SwfModule) {
    this.wasm = wasm;
    this.scratch = this.malloc(SCRATCH_BYTES, 'Loading libswf');
    const layout = (row: RowName) => parseRowLayout(wasm.UTF8ToString(wasm._swfw_row_layout(ROWS[row])));
    this.#rowLayouts = { decoderStats: layout('decoderStats'), channelStats: layout('channelStats'),
      residualCounts: layout('residualCounts') };
  }

  /** The row of doubles a glue function just wrote to scratchDoubles. */
  row(name: RowName): Row {
    return new Row(name, this.#rowLayouts[name], this.wasm.HEAPF64.subarray(this.scratchDoubles >>> 3));
  }

  malloc(bytes: number, context: string): number {
    const pointer = this.wasm._malloc(bytes);
    if (pointer === 0) {
      throw new SwfError(`${context}: ${this.statusString(SwfStatus.NOMEM)}`, SwfStatus.NOMEM);
    }
    return pointer;
  }

  statusString(status: number): string {
    return this.wasm.UTF8ToString(this.wasm._swf_status_string(status));
  }

  check(status: number, context: string): void {
    if (status !== SwfStatus.OK) {
      throw new SwfError(`${context}: ${this.statusString(status)}`, status);
    }
  }

  /** Throws for SWF_E_INVALID with the config field the glue named. */
  checkConfig(status: number, what: string, config: object): void {
    const fieldPointer = this.scratchUint32(1);
    if (status === SwfStatus.INVALID && fieldPointer !== 0) {
      const field = camelCase(this.wasm.UTF8ToString(fieldPointer));
      const value: unknown = (config as Record<string, unknown>)[field];
      const shown = typeof value === 'number' ? `${value}` : JSON.stringify(value);
      const allowed = ALLOWED_VALUES[`${what}.${field}`] ?? ALLOWED_VALUES[field] ?? 'a value in its documented range';
      throw new SwfError(
        `Invalid ${what} config: field ${field} is ${shown}; it must be ${allowed}.`,
        status,
        field,
      );
    }
    this.check(status, `Invalid ${what} config`);
  }

  /** Where out-parameters of doubles go in the scratch memory. */
  get scratchDoubles(): number {
    return this.scratch + SCRATCH_DOUBLES_OFFSET;
  }

  /** The index-th uint32_t of the scratch memory. */
  scratchUint32(index: number): number {
    return this.wasm.HEAPU32[(this.scratch >>> 2) + index]!;
  }

  copyOut(pointer: number, bytes: number): Uint8Array {
    return this.wasm.HEAPU8.slice(pointer, pointer + bytes);
  }

  readRepairIdFields(pointer: number): RepairId {
    const fields = this.wasm.HEAPU32;
    const index = pointer >>> 2;
    return {
      repairKey: fields[index]!,
      dt: fields[index + 1]!,
      nss: fields[index + 2]!,
      firstEsi: fields[index + 3]!,
    };
  }
}

/** Memory inside the instance that grows to hold the largest array copied
 * in; libswf, not this buffer, judges whether a length is right. */
class StagingBuffer {
  readonly #runtime: Runtime;
  #pointer = 0;
  #capacity = 0;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** Copies bytes in and returns where they are (never NULL, even for no
   * bytes). */
  put(bytes: Uint8Array, context: string): number {
    if (this.#pointer === 0 || bytes.length > this.#capacity) {
      const capacity = Math.max(bytes.length, 1);
      const pointer = this.#runtime.malloc(capacity, context);
      this.#runtime.wasm._free(this.#pointer);
      this.#pointer = pointer;
      this.#capacity = capacity;
    }
    this.#runtime.wasm.HEAPU8.set(bytes, this.#pointer);
    return this.#pointer;
  }

  free(): void {
    this.#runtime.wasm._free(this.#pointer);
    this.#pointer = 0;
    this.#capacity = 0;
  }
}

class WasmSwf implements Swf {
  readonly #runtime: Runtime;
  readonly #input: StagingBuffer;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
    this.#input = new StagingBuffer(runtime);
  }

  gfKernel(): string {
    const wasm = this.#runtime.wasm;
    return wasm.UTF8ToString(wasm._swf_gf_kernel());
  }

  coefficients(repairKey: number, dt: number, nss: number): Uint8Array {
    const context = 'Swf.coefficients';
    requireUint(repairKey, UINT32_MAX, 'argument', 'repairKey', context);
    requireUint(dt, UINT32_MAX, 'argument', 'dt', context);
    requireUint(nss, UINT16_MAX, 'argument', 'nss', context);
    const runtime = this.#runtime;
    const coefs = runtime.malloc(Math.max(nss, 1), context);
    try {
      runtime.check(runtime.wasm._swfw_coefficients(repairKey, dt, nss, coefs), context);
      return runtime.copyOut(coefs, nss);
    } finally {
      runtime.wasm._free(coefs);
    }
  }

  writeRepairId(id: RepairId): Uint8Array {
    const context = 'Swf.writeRepairId';
    requireRepairId(id, context);
    const runtime = this.#runtime;
    runtime.check(
      runtime.wasm._swfw_repair_id_write(id.repairKey, id.dt, id.nss, id.firstEsi, runtime.scratch),
      context,
    );
    return runtime.copyOut(runtime.scratch, REPAIR_ID_BYTES);
  }

  readRepairId(bytes: Uint8Array): RepairId {
    const runtime = this.#runtime;
    const pointer = this.#input.put(bytes, 'Swf.readRepairId');
    runtime.check(runtime.wasm._swfw_repair_id_read(pointer, bytes.length, runtime.scratch), 'Swf.readRepairId');
    return runtime.readRepairIdFields(runtime.scratch);
  }

  encoder(config: EncoderConfig): Encoder {
    return new WasmEncoder(this.#runtime, config);
  }

  decoder(config: DecoderConfig): Decoder {
    return new WasmDecoder(this.#runtime, config);
  }

  channel(config: ChannelConfig): Channel {
    return new WasmChannel(this.#runtime, config);
  }

  fecPath({ symbolBytes, k, z, channel }: FecPathConfig): FecPath {
    const made: { free(): void }[] = [];
    const make = <T extends { free(): void }>(object: T): T => {
      made.push(object);
      return object;
    };
    try {
      return {
        encoder: make(this.encoder({ symbolBytes, k, z })),
        decoder: make(this.decoder({ symbolBytes, maxWindow: z })),
        channel: make(this.channel(channel)),
        free: () => made.forEach((object) => object.free()),
      };
    } catch (error) {
      made.forEach((object) => object.free());
      throw error;
    }
  }

  residualStream(config: ResidualStreamConfig): ResidualStream {
    return new WasmResidualStream(this.#runtime, config);
  }

  measureChannel(config: ChannelConfig, stream: Stream): ChannelStats {
    const runtime = this.#runtime;
    requireUint(stream.packetBytes, UINT32_MAX, 'field', 'packetBytes', 'Invalid stream config');
    // An unknown rule becomes a value swf_stream_check names.
    const rule = stream.lossRule ?? 'start';
    const lossRule = Object.hasOwn(LOSS_RULES, rule) ? LOSS_RULES[rule] : UINT32_MAX;
    return withChannelConfig(runtime, config, (configPointer) => {
      const status = runtime.wasm._swfw_channel_measure(
        configPointer, stream.durationMs, stream.rateMbps, stream.packetBytes, lossRule,
        stream.linkRateMbps ?? 0, runtime.scratchDoubles, runtime.scratch + 4,
      );
      runtime.checkConfig(status, 'stream', stream);
      const row = runtime.row('channelStats');
      const timeBased = row.get('time_based') !== 0;
      return {
        timeBased,
        durationUs: row.get('duration_us'),
        lostUs: row.get('lost_us'),
        timeLostRatio: timeBased ? row.get('time_lost_ratio') : null,
        packets: row.get('packets'),
        packetsLost: row.get('packets_lost'),
        packetLossRatio: row.get('packet_loss_ratio'),
        burstUnit: timeBased ? 'ms' : 'packets',
        bursts: row.get('bursts'),
        burstMin: row.get('burst_min'),
        burstMean: row.get('burst_mean'),
        burstMax: row.get('burst_max'),
        burstHistogram: row.all('burst_histogram'),
        burstBinWidth: timeBased ? CHANNEL_BURST_BIN_MS : 1,
      };
    });
  }
}

function requireRepairId(id: RepairId, context: string): void {
  for (const field of ['repairKey', 'dt', 'nss', 'firstEsi'] as const) {
    requireUint(id[field], UINT32_MAX, 'field', field, `${context}: repair ID`);
  }
}

/** Throws if an object was freed; returns its handle otherwise. */
function requireLive(handle: number, what: string, context: string): number {
  if (handle === 0) {
    throw new SwfError(`${context}: this ${what} was freed.`, SwfStatus.INVALID);
  }
  return handle;
}

class WasmEncoder implements Encoder {
  readonly symbolBytes: number;
  readonly #runtime: Runtime;
  readonly #input: StagingBuffer;
  #handle: number;
  #repair: number;

  constructor(runtime: Runtime, config: EncoderConfig) {
    const settings = { dt: 15, firstEsi: 0, firstRepairKey: 0, ...config };
    const what = 'Invalid encoder config';
    for (const field of ['symbolBytes', 'k', 'z', 'dt', 'firstEsi', 'firstRepairKey'] as const) {
      requireUint(settings[field], UINT32_MAX, 'field', field, what);
    }
    const wasm = runtime.wasm;
    const status = wasm._swfw_encoder_new(
      settings.symbolBytes, settings.k, settings.z, settings.dt, settings.firstEsi,
      settings.firstRepairKey, runtime.scratch, runtime.scratch + 4,
    );
    runtime.checkConfig(status, 'encoder', settings);
    const handle = runtime.scratchUint32(0);
    try {
      this.#repair = runtime.malloc(settings.symbolBytes, 'Swf.encoder');
    } catch (error) {
      wasm._swf_encoder_free(handle);
      throw error;
    }
    this.#handle = handle;
    this.#runtime = runtime;
    this.symbolBytes = settings.symbolBytes;
    this.#input = new StagingBuffer(runtime);
  }

  addSource(bytes: Uint8Array): { esi: number; repairDue: boolean } {
    const context = 'Encoder.addSource';
    const handle = requireLive(this.#handle, 'encoder', context);
    const runtime = this.#runtime;
    const pointer = this.#input.put(bytes, context);
    const esi = runtime.scratch;
    const repairDue = runtime.scratch + 4;
    runtime.check(runtime.wasm._swf_encoder_add_source(handle, pointer, bytes.length, esi, repairDue), context);
    return { esi: runtime.scratchUint32(0), repairDue: runtime.wasm.HEAPU8[repairDue] !== 0 };
  }

  buildRepair(): { id: RepairId; symbol: Uint8Array } {
    const context = 'Encoder.buildRepair';
    const handle = requireLive(this.#handle, 'encoder', context);
    const runtime = this.#runtime;
    runtime.check(runtime.wasm._swfw_encoder_build_repair(handle, this.#repair, runtime.scratch), context);
    return {
      id: runtime.readRepairIdFields(runtime.scratch),
      symbol: runtime.copyOut(this.#repair, this.symbolBytes),
    };
  }

  free(): void {
    const wasm = this.#runtime.wasm;
    wasm._swf_encoder_free(this.#handle);
    wasm._free(this.#repair);
    this.#input.free();
    this.#handle = 0;
    this.#repair = 0;
  }
}

class WasmDecoder implements Decoder {
  readonly symbolBytes: number;
  readonly #runtime: Runtime;
  readonly #input: StagingBuffer;
  #handle: number;

  constructor(runtime: Runtime, config: DecoderConfig) {
    const settings = { windowCapacity: 0, ...config };
    const what = 'Invalid decoder config';
    for (const field of ['symbolBytes', 'maxWindow', 'windowCapacity'] as const) {
      requireUint(settings[field], UINT32_MAX, 'field', field, what);
    }
    const status = runtime.wasm._swfw_decoder_new(
      settings.symbolBytes, settings.maxWindow, settings.windowCapacity, runtime.scratch,
      runtime.scratch + 4,
    );
    runtime.checkConfig(status, 'decoder', settings);
    this.#handle = runtime.scratchUint32(0);
    this.#runtime = runtime;
    this.symbolBytes = settings.symbolBytes;
    this.#input = new StagingBuffer(runtime);
  }

  addSource(esi: number, bytes: Uint8Array): void {
    const context = 'Decoder.addSource';
    const handle = requireLive(this.#handle, 'decoder', context);
    requireUint(esi, UINT32_MAX, 'argument', 'esi', context);
    const pointer = this.#input.put(bytes, context);
    this.#runtime.check(this.#runtime.wasm._swf_decoder_add_source(handle, esi, pointer, bytes.length), context);
  }

  addRepair(id: RepairId, bytes: Uint8Array): void {
    const context = 'Decoder.addRepair';
    const handle = requireLive(this.#handle, 'decoder', context);
    requireRepairId(id, context);
    const pointer = this.#input.put(bytes, context);
    const status = this.#runtime.wasm._swfw_decoder_add_repair(
      handle, id.repairKey, id.dt, id.nss, id.firstEsi, pointer, bytes.length,
    );
    this.#runtime.check(status, context);
  }

  takeRebuilt(): { esi: number; symbol: Uint8Array }[] {
    const handle = requireLive(this.#handle, 'decoder', 'Decoder.takeRebuilt');
    const runtime = this.#runtime;
    const rebuilt: { esi: number; symbol: Uint8Array }[] = [];
    while (runtime.wasm._swf_decoder_next_rebuilt(handle, runtime.scratch, runtime.scratch + 4) !== 0) {
      rebuilt.push({
        esi: runtime.scratchUint32(0),
        symbol: runtime.copyOut(runtime.scratchUint32(1), this.symbolBytes),
      });
    }
    return rebuilt;
  }

  stats(): DecoderStats {
    const handle = requireLive(this.#handle, 'decoder', 'Decoder.stats');
    const runtime = this.#runtime;
    runtime.wasm._swfw_decoder_stats(handle, runtime.scratchDoubles);
    const row = runtime.row('decoderStats');
    return {
      sources: row.get('sources'),
      repairs: row.get('repairs'),
      usefulRepairs: row.get('useful_repairs'),
      rebuilt: row.get('rebuilt'),
      givenUp: row.get('given_up'),
      duplicates: row.get('duplicates'),
      rejected: row.get('rejected'),
      equations: row.get('equations'),
      unknowns: row.get('unknowns'),
      memoryBytes: row.get('memory_bytes'),
      peakMemoryBytes: row.get('peak_memory_bytes'),
    };
  }

  free(): void {
    this.#runtime.wasm._swf_decoder_free(this.#handle);
    this.#input.free();
    this.#handle = 0;
  }
}

/** Builds config inside the instance for the length of use(pointer to a
 * swf_channel_config), throwing an SwfError naming an invalid field. */
function withChannelConfig<T>(runtime: Runtime, config: ChannelConfig, use: (configPointer: number) => T): T {
  const what = 'Invalid channel config';
  if (!Object.hasOwn(CHANNEL_KIND_CODES, config.kind)) {
    throw new SwfError(
      `${what}: field kind is ${JSON.stringify(config.kind)}; it must be one of `
        + `${Object.keys(CHANNEL_KIND_CODES).join(', ')}.`,
      SwfStatus.INVALID,
      'kind',
    );
  }
  // Every field swf_channel_config has, zero unless this kind sets it.
  const settings = {
    seed: 0, loss: 0, p: 0, q: 0, lossGood: 0, lossBad: 0, stepMs: 0, periodMs: 0, durationMs: 0,
    phaseMs: 0, jitterMs: 0, intervals: [] as readonly LossInterval[], tracePeriodMs: 0, ...config,
  };
  requireUint(settings.seed, UINT32_MAX, 'field', 'seed', what);
  const wasm = runtime.wasm;
  const intervalCount = settings.intervals.length;
  const intervals = intervalCount === 0 ? 0 : runtime.malloc(LOSS_INTERVAL_BYTES * intervalCount, 'Swf.channel');
  let configPointer = 0;
  try {
    const doubles = wasm.HEAPF64;
    settings.intervals.forEach((interval, index) => {
      doubles[(intervals >>> 3) + 2 * index] = interval.startMs;
      doubles[(intervals >>> 3) + 2 * index + 1] = interval.endMs;
    });
    configPointer = wasm._swfw_channel_config_new(
      CHANNEL_KIND_CODES[config.kind], settings.seed, settings.loss, settings.p, settings.q, settings.lossGood,
      settings.lossBad, settings.stepMs, settings.periodMs, settings.durationMs, settings.phaseMs,
      settings.jitterMs, intervals, intervalCount, settings.tracePeriodMs, runtime.scratch + 4,
    );
    if (configPointer === 0) {
      const invalid = runtime.scratchUint32(1) !== 0;
      runtime.checkConfig(invalid ? SwfStatus.INVALID : SwfStatus.NOMEM, 'channel', settings);
    }
    return use(configPointer);
  } finally {
    wasm._swfw_channel_config_free(configPointer);
    wasm._free(intervals); // a channel keeps its own copy
  }
}

class WasmChannel implements Channel {
  readonly kind: ChannelKind;
  readonly #runtime: Runtime;
  #handle: number;

  constructor(runtime: Runtime, config: ChannelConfig) {
    this.#handle = withChannelConfig(runtime, config, (configPointer) => {
      runtime.check(runtime.wasm._swf_channel_new(configPointer, runtime.scratch), 'Swf.channel');
      return runtime.scratchUint32(0);
    });
    this.#runtime = runtime;
    this.kind = config.kind;
  }

  lost(tUs: number): boolean {
    const context = 'Channel.lost';
    const handle = requireLive(this.#handle, 'channel', context);
    requireUint(tUs, Number.MAX_SAFE_INTEGER, 'argument', 'tUs', context);
    return this.#runtime.wasm._swfw_channel_lost(handle, tUs) !== 0;
  }

  lostDuring(startUs: number, endUs: number): boolean {
    const context = 'Channel.lostDuring';
    const handle = requireLive(this.#handle, 'channel', context);
    requireUint(startUs, Number.MAX_SAFE_INTEGER, 'argument', 'startUs', context);
    requireUint(endUs, Number.MAX_SAFE_INTEGER, 'argument', 'endUs', context);
    return this.#runtime.wasm._swfw_channel_lost_during(handle, startUs, endUs) !== 0;
  }

  free(): void {
    this.#runtime.wasm._swf_channel_free(this.#handle);
    this.#handle = 0;
  }
}

class WasmResidualStream implements ResidualStream {
  readonly #runtime: Runtime;
  #handle: number;

  constructor(runtime: Runtime, config: ResidualStreamConfig) {
    const settings = { firstPacket: 0, ...config };
    const what = 'Invalid residual stream config';
    for (const field of ['k', 'z'] as const) requireUint(settings[field], UINT32_MAX, 'field', field, what);
    requireUint(settings.firstPacket, Number.MAX_SAFE_INTEGER, 'field', 'firstPacket', what);
    this.#handle = withChannelConfig(runtime, config.channel, (channelPointer) => {
      const status = runtime.wasm._swfw_residual_new(
        settings.k, settings.z, settings.packetMs, settings.firstPacket, channelPointer, runtime.scratch,
        runtime.scratch + 4,
      );
      runtime.checkConfig(status, 'residual stream', settings);
      return runtime.scratchUint32(0);
    });
    this.#runtime = runtime;
  }

  advance(sources: number): ResidualCounts {
    const context = 'ResidualStream.advance';
    const handle = requireLive(this.#handle, 'residual stream', context);
    requireUint(sources, Number.MAX_SAFE_INTEGER, 'argument', 'sources', context);
    const runtime = this.#runtime;
    runtime.check(runtime.wasm._swfw_residual_advance(handle, sources, runtime.scratchDoubles), context);
    const row = runtime.row('residualCounts');
    return {
      sources: row.get('sources'),
      lost: row.get('lost'),
      packets: row.get('packets'),
      packetsLost: row.get('packets_lost'),
      rebuilt: row.get('rebuilt'),
      rebuiltWrong: row.get('rebuilt_wrong'),
    };
  }

  free(): void {
    this.#runtime.wasm._swf_residual_free(this.#handle);
    this.#handle = 0;
  }
}
