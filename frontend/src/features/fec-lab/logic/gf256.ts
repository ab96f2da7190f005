/**
 * GF(2^8) with RFC 8681's polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), by log and exp tables.
 * Only the lab's picture of the equations uses it; the codec does the real decoding in WebAssembly.
 */

const exp = new Uint8Array(510);
const log = new Uint8Array(256);
for (let power = 0, value = 1; power < 255; power += 1) {
  exp[power] = value;
  exp[power + 255] = value;
  log[value] = power;
  value <<= 1;
  if (value & 0x100) value ^= 0x11d;
}

/** gfMul returns a * b. */
export function gfMul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : exp[log[a] + log[b]];
}

/** gfInv returns the inverse of a, which must not be 0. */
export function gfInv(a: number): number {
  if (a === 0) throw new RangeError('0 has no inverse in GF(2^8).');
  return exp[255 - log[a]];
}
