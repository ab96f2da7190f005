/** A small RGB picture, 3 bytes per pixel, rows top to bottom. */
export interface RgbImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/**
 * sampleImage draws a satellite over the Earth's limb in 32 × 24 pixels (2304 bytes): small enough
 * to send in a few dozen symbols, clear enough that a missing row shows.
 */
export function sampleImage(): RgbImage {
  const width = 32;
  const height = 24;
  const rgb = new Uint8Array(width * height * 3);
  const paint = (x: number, y: number, colour: [number, number, number]) => rgb.set(colour, (y * width + x) * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const sky: [number, number, number] = [8, 16 + y * 2, 48 + y * 4];
      const earth = (x - 16) ** 2 + (y - 58) ** 2 < 38 ** 2;
      const star = (x * 7 + y * 13) % 37 === 0;
      paint(x, y, earth ? [30 + y * 3, 90 + y * 4, 160] : star ? [230, 230, 200] : sky);
    }
  }
  for (let x = 5; x < 27; x += 1) {
    for (let y = 8; y < 12; y += 1) {
      const body = x >= 13 && x < 19;
      paint(x, y, body ? [220, 180, 60] : x % 3 === 0 ? [20, 40, 90] : [50, 90, 190]);
    }
  }
  for (let y = 5; y < 15; y += 1) for (let x = 14; x < 18; x += 1) paint(x, y, [230, 190, 70]);
  return { width, height, rgb };
}
