/**
 * A figure as a PNG: its SVG drawn on a canvas at print resolution, and the resolution written into
 * the file (a pHYs chunk), so that a word processor places it at its printed size, a column wide,
 * rather than at a screen's 96 dpi.
 */

const signature = [137, 80, 78, 71, 13, 10, 26, 10];

const crcTable = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

/** crc32 is the CRC every PNG chunk ends with (ISO 3309, over the chunk's type and data). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** pngChunk is one chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(new TextEncoder().encode(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

function isPng(png: Uint8Array): boolean {
  return png.length >= 33 && signature.every((byte, index) => png[index] === byte);
}

/** pngDimensions reads a PNG's width and height in pixels from its header (IHDR). */
export function pngDimensions(png: Uint8Array): { width: number; height: number } {
  if (!isPng(png)) throw new Error('This is not a PNG file: its first 8 bytes are not the PNG signature.');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * withPngDensity gives the PNG with its resolution set to dpi (pixels per metre in a pHYs chunk
 * right after the header; any pHYs it had goes). The pixels are untouched.
 */
export function withPngDensity(png: Uint8Array, dpi: number): Uint8Array {
  if (!isPng(png)) throw new Error('This is not a PNG file: its first 8 bytes are not the PNG signature.');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const pixelsPerMetre = Math.round(dpi / 0.0254);
  const density = new Uint8Array(9);
  const densityView = new DataView(density.buffer);
  densityView.setUint32(0, pixelsPerMetre);
  densityView.setUint32(4, pixelsPerMetre);
  density[8] = 1; // the unit: the metre
  const parts: Uint8Array[] = [png.subarray(0, 8)];
  for (let offset = 8; offset < png.length; ) {
    const end = offset + 12 + view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (type !== 'pHYs') parts.push(png.subarray(offset, end));
    if (type === 'IHDR') parts.push(pngChunk('pHYs', density));
    offset = end;
  }
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  parts.reduce((offset, part) => (out.set(part, offset), offset + part.length), 0);
  return out;
}

/**
 * renderPng draws a standalone SVG on a canvas of width × height pixels (the SVG scales to it: a
 * vector redrawn, not pixels blown up) and gives the PNG with its resolution set to dpi. The SVG
 * goes in as a data: URL, an image source the site's Content-Security-Policy allows (img-src
 * 'self' data:); a data: image does not taint the canvas.
 */
export async function renderPng(svg: string, width: number, height: number, dpi: number): Promise<Blob> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser gives no 2D canvas to draw it on');
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error(`the canvas of ${width} × ${height} pixels gave no PNG`);
  const png = withPngDensity(new Uint8Array(await blob.arrayBuffer()), dpi);
  return new Blob([png.slice().buffer], { type: 'image/png' });
}
