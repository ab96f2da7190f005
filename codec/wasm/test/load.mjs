// Loads the built wrapper and module from build/wasm/ for the tests and the
// benchmark, or fails with what to run first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const buildDir = `${repoRoot}build/wasm/`;

export async function loadBuiltSwf() {
  for (const file of ['index.js', 'swf.mjs', 'swf.wasm']) {
    if (!existsSync(buildDir + file)) {
      throw new Error(`${buildDir}${file} is missing: run codec/wasm/build.sh first.`);
    }
  }
  const wrapper = await import(`${buildDir}index.js`);
  const swf = await wrapper.loadSwf({ wasmBinary: readFileSync(`${buildDir}swf.wasm`) });
  return { ...wrapper, swf };
}

/** Reads every JSON vector in tests/vectors/<kind>/, failing if there is none
 * (a suite that finds no vectors must not pass). */
export function readVectors(kind) {
  const dir = `${repoRoot}tests/vectors/${kind}/`;
  const files = existsSync(dir) ? readdirJson(dir) : [];
  if (files.length === 0) {
    throw new Error(`No test vectors in ${dir}: generate them (tests/vectors/gen_${kind.split('/')[0]}.py) first.`);
  }
  return files.map((file) => ({ file, vector: JSON.parse(readFileSync(dir + file, 'utf8')) }));
}

function readdirJson(dir) {
  return readdirSync(dir).filter((file) => file.endsWith('.json')).sort();
}

/** mulberry32: a small seeded generator of test data, uniform in [0, 2^32). */
export function seededUint32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export function randomBytes(next, length) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = next() & 0xff;
  return bytes;
}

export const fromHex = (hex) => Uint8Array.from(Buffer.from(hex, 'hex'));
export const toHex = (bytes) => Buffer.from(bytes).toString('hex');
