export type * from './types';
export { createOwned, type Freeable } from './create-owned';
export { useCodec, type CodecState } from './use-codec';
