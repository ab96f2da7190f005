// The public surface of libswf's WebAssembly build. See codec/wasm/README.md.
export {
  loadSwf,
  SwfError,
  SwfStatus,
  type ChannelConfig,
  type ChannelKind,
  type Channel,
  type Decoder,
  type DecoderConfig,
  type DecoderStats,
  type Encoder,
  type EncoderConfig,
  type LoadOptions,
  type LossInterval,
  type RepairId,
  type Swf,
} from './swf.js';
