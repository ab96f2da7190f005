// Types of the emscripten module build.sh links into build/wasm/swf.mjs:
// the C functions it exports (see exported_functions in build.sh), with
// pointers as numbers. Only src/swf.ts uses them.

type Pointer = number;
type Status = number;

export interface SwfModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, scriptDirectory: string) => string;
}

export interface SwfModule {
  // Views of the memory; replaced when it grows, so read them after each call.
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
  readonly HEAPF64: Float64Array;
  UTF8ToString(pointer: Pointer): string;

  _malloc(bytes: number): Pointer;
  _free(pointer: Pointer): void;

  _swf_status_string(status: Status): Pointer;
  _swf_gf_kernel(): Pointer;
  _swfw_repair_id_write(repairKey: number, dt: number, nss: number, firstEsi: number, out: Pointer): Status;
  _swfw_repair_id_read(buf: Pointer, len: number, fields: Pointer): Status;
  _swfw_coefficients(repairKey: number, dt: number, nss: number, coefs: Pointer): Status;

  _swfw_encoder_new(
    symbolBytes: number, k: number, z: number, dt: number, firstEsi: number, firstRepairKey: number,
    out: Pointer, invalidField: Pointer,
  ): Status;
  _swf_encoder_free(encoder: Pointer): void;
  _swf_encoder_add_source(encoder: Pointer, data: Pointer, len: number, esi: Pointer, repairDue: Pointer): Status;
  _swfw_encoder_build_repair(encoder: Pointer, out: Pointer, idFields: Pointer): Status;

  _swfw_decoder_new(
    symbolBytes: number, maxWindow: number, windowCapacity: number, out: Pointer, invalidField: Pointer,
  ): Status;
  _swf_decoder_free(decoder: Pointer): void;
  _swf_decoder_add_source(decoder: Pointer, esi: number, symbol: Pointer, len: number): Status;
  _swfw_decoder_add_repair(
    decoder: Pointer, repairKey: number, dt: number, nss: number, firstEsi: number,
    symbol: Pointer, len: number,
  ): Status;
  _swf_decoder_next_rebuilt(decoder: Pointer, esi: Pointer, symbol: Pointer): number;
  _swfw_decoder_stats(decoder: Pointer, out: Pointer): void;
  _swfw_row_layout(row: number): Pointer;

  _swfw_channel_config_new(
    kind: number, seed: number, loss: number, p: number, q: number, lossGood: number, lossBad: number,
    stepMs: number, periodMs: number, durationMs: number, phaseMs: number, jitterMs: number,
    intervals: Pointer, intervalCount: number, tracePeriodMs: number, invalidField: Pointer,
  ): Pointer;
  _swfw_channel_config_free(config: Pointer): void;
  _swf_channel_new(config: Pointer, out: Pointer): Status;
  _swf_channel_free(channel: Pointer): void;
  _swfw_channel_lost(channel: Pointer, tUs: number): number;
  _swfw_channel_lost_during(channel: Pointer, startUs: number, endUs: number): number;
  _swfw_channel_measure(
    config: Pointer, durationMs: number, rateMbps: number, packetBytes: number, lossRule: number,
    linkRateMbps: number, out: Pointer, invalidField: Pointer,
  ): Status;

  _swfw_residual_new(
    k: number, z: number, packetMs: number, firstPacket: number, channel: Pointer, out: Pointer, invalidField: Pointer,
  ): Status;
  _swfw_residual_advance(residual: Pointer, sources: number, out: Pointer): Status;
  _swf_residual_free(residual: Pointer): void;
}

declare const createSwfModule: (options?: SwfModuleOptions) => Promise<SwfModule>;
export default createSwfModule;
