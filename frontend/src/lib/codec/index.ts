export type * from './types';
export { useCodec, type CodecState } from './use-codec';
