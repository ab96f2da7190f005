import { useEffect, useState } from 'react';
import { loadCodec } from './load-codec';
import type { Codec } from './types';

export type CodecState = { status: 'loading' } | { status: 'ready'; codec: Codec } | { status: 'failed'; message: string };

/** useCodec loads the WebAssembly codec and says when it is ready. */
export function useCodec(): CodecState {
  const [state, setState] = useState<CodecState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    loadCodec().then(
      (codec) => current && setState({ status: 'ready', codec }),
      (error: unknown) =>
        current && setState({ status: 'failed', message: `The WebAssembly codec did not load: ${String(error)}` }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}
