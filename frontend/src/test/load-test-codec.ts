import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSwf } from '@swf/index.js';
import type { Codec } from '../lib/codec';

/** The built swf.wasm (codec/wasm/build.sh), read from disk: node cannot fetch file URLs. */
const wasmPath = fileURLToPath(new URL('../../../build/wasm/swf.wasm', import.meta.url));

/** loadTestCodec loads the real WebAssembly codec for node tests. */
export function loadTestCodec(): Promise<Codec> {
  return loadSwf({ wasmBinary: readFileSync(wasmPath) });
}
