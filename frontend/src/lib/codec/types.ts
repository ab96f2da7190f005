/**
 * The WebAssembly codec's types, from its wrapper (codec/wasm/src, built into build/wasm by
 * codec/wasm/build.sh). The labs use the real wrapper's types, so a change there fails typechecking here.
 */
export type {
  Channel,
  ChannelConfig,
  ChannelKind,
  Decoder,
  DecoderStats,
  Encoder,
  FecPath,
  LossInterval,
  RepairId,
  ResidualStream,
  Swf as Codec,
} from '@swf/index.js';
