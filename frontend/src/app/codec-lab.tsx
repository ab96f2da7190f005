import type { ReactNode } from 'react';
import { type Codec, useCodec } from '../lib/codec';

/** CodecLab loads the WebAssembly codec, then runs a browser lab on it. */
export function CodecLab({ children }: { children: (codec: Codec) => ReactNode }) {
  const codec = useCodec();
  if (codec.status === 'loading') return <p role="status">Loading the codec…</p>;
  if (codec.status === 'failed') {
    return (
      <p className="error" role="alert">
        {codec.message}
      </p>
    );
  }
  return (
    <>
      <p className="kernel">codec: WebAssembly, GF(2^8) kernel {codec.codec.gfKernel()}</p>
      {children(codec.codec)}
    </>
  );
}
