import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, pngChunk, pngDimensions, withPngDensity } from './figure-png';

/** A 2 × 1 grey PNG, made here from its chunks. */
function tinyPng(): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, 2);
  view.setUint32(4, 1);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const pixels = deflateSync(Uint8Array.from([0, 128, 64]));
  const parts = [Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]), pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', new Uint8Array())];
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

/** The chunks of a PNG: type and data, each CRC checked. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const found = [];
  for (let offset = 8; offset < png.length; ) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    expect(view.getUint32(offset + 8 + length)).toBe(crc32(png.subarray(offset + 4, offset + 8 + length)));
    found.push({ type, data: png.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
  }
  return found;
}

describe('crc32', () => {
  it('gives the CRC-32 check value of "123456789"', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

describe('withPngDensity', () => {
  it('puts the resolution in a pHYs chunk after the header, pixels untouched', () => {
    const png = tinyPng();
    const dense = withPngDensity(png, 300);
    const found = chunks(dense);
    expect(found.map((chunk) => chunk.type)).toEqual(['IHDR', 'pHYs', 'IDAT', 'IEND']);
    const density = new DataView(found[1].data.buffer, found[1].data.byteOffset, 9);
    // 300 dpi is 11,811 pixels per metre, both ways, the unit the metre.
    expect([density.getUint32(0), density.getUint32(4), density.getUint8(8)]).toEqual([11811, 11811, 1]);
    expect(found[2].data).toEqual(chunks(png)[1].data);
    expect(pngDimensions(dense)).toEqual({ width: 2, height: 1 });
  });

  it('replaces a resolution the file had', () => {
    const twice = withPngDensity(withPngDensity(tinyPng(), 96), 300);
    expect(chunks(twice).map((chunk) => chunk.type)).toEqual(['IHDR', 'pHYs', 'IDAT', 'IEND']);
  });

  it('refuses what is not a PNG, saying so', () => {
    expect(() => withPngDensity(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>...'), 300)).toThrow(
      'This is not a PNG file: its first 8 bytes are not the PNG signature.',
    );
  });
});
