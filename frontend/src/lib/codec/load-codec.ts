import { loadSwf } from '@swf/index.js';
import wasmUrl from '@swf/swf.wasm?url';
import type { Codec } from './types';

let loading: Promise<Codec> | undefined;

/** loadCodec loads the WebAssembly codec once per page; Vite copies swf.wasm into the build. */
export function loadCodec(): Promise<Codec> {
  loading ??= loadSwf({ locateFile: () => wasmUrl });
  return loading;
}
