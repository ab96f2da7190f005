import { describe, expect, it } from 'vitest';
import { gfInv, gfMul } from './gf256';

describe('GF(2^8) with polynomial 0x11D', () => {
  it('reduces by x^8 = x^4 + x^3 + x^2 + 1', () => {
    expect(gfMul(0x80, 2)).toBe(0x1d);
    expect(gfMul(0x53, 1)).toBe(0x53);
    expect(gfMul(0x53, 0)).toBe(0);
  });

  it('multiplies like carry-less multiplication reduced modulo 0x11D', () => {
    const reference = (a: number, b: number) => {
      let product = 0;
      for (let bit = 0; bit < 8; bit += 1) if (b & (1 << bit)) product ^= a << bit;
      for (let bit = 14; bit >= 8; bit -= 1) if (product & (1 << bit)) product ^= 0x11d << (bit - 8);
      return product;
    };
    const mismatches: string[] = [];
    for (let a = 0; a < 256; a += 1) {
      for (let b = 0; b < 256; b += 1) if (gfMul(a, b) !== reference(a, b)) mismatches.push(`${a} * ${b}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('inverts every non-zero element', () => {
    const products = Array.from({ length: 255 }, (_, index) => gfMul(index + 1, gfInv(index + 1)));
    expect(new Set(products)).toEqual(new Set([1]));
    expect(() => gfInv(0)).toThrow('0 has no inverse');
  });
});
