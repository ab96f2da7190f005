import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * What the figure specs check of a chart's downloads: the SVG stands alone (it parses, and drawn as
 * an image, with none of the page's style sheets, it shows the chart's colours), it is printed a
 * column wide or more, and it holds the axis titles, a legend and its caption; the PNG is print
 * resolution and not blank; the CSV names its units.
 */

/** A chart's formats; the run's menu has the API's exports ("Summary, CSV"). */
export type Format = 'SVG' | 'PNG' | 'CSV' | (string & {});

/** menuButton is a chart's Download button, by the chart's title. */
export const menuButton = (page: Page, chartTitle: string) => page.getByRole('button', { name: `Download: ${chartTitle}`, exact: true });

/** download picks a format in the menu of a Download button and gives the file the browser saved, and its name. */
export async function download(page: Page, button: Locator, format: Format): Promise<{ name: string; bytes: Buffer }> {
  await button.click();
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: format, exact: true }).click()]);
  expect(await saved.failure()).toBeNull();
  const file = { name: saved.suggestedFilename(), bytes: readFileSync(await saved.path()) };
  // Kept for a look, beside the specs' screenshots.
  mkdirSync('test-output/figures', { recursive: true });
  writeFileSync(`test-output/figures/${file.name}`, file.bytes);
  return file;
}

/** What a figure's SVG is, parsed and drawn in the page. */
export interface SvgFacts {
  /** The parser's complaint, if it has one. */
  error: string | null;
  widthPt: number;
  texts: string[];
  /** Paths with something to draw. */
  paths: number;
  /** Of the figure drawn as an image (no style sheet): its pixels that are not white, and those of colour. */
  inked: number;
  colours: string[];
}

/**
 * svgFacts parses a figure's SVG and draws it as an image, alone, on a canvas, in a blank page of
 * the browser: one without the site's style sheets, nor its Content-Security-Policy, which applies
 * to the documents a page parses and would refuse the figure's style attributes there.
 */
export async function svgFacts(page: Page, svg: string, colours: string[]): Promise<SvgFacts> {
  const blank = await page.context().newPage();
  try {
    return await svgFactsIn(blank, svg, colours);
  } finally {
    await blank.close();
  }
}

async function svgFactsIn(page: Page, svg: string, colours: string[]): Promise<SvgFacts> {
  return page.evaluate(
    async ({ svg, colours }) => {
      const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const error = document.querySelector('parsererror')?.textContent ?? null;
      const root = document.documentElement;
      const texts = [...document.querySelectorAll('text')].map((text) => text.textContent ?? '');
      const paths = [...document.querySelectorAll('path')].filter((path) => (path.getAttribute('d') ?? '').length > 2).length;
      const image = new Image();
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
      await image.decode();
      const canvas = Object.assign(window.document.createElement('canvas'), { width: image.naturalWidth, height: image.naturalHeight });
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const wanted = colours.map((hex) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)));
      const seen = new Set<string>();
      let inked = 0;
      for (let index = 0; index < pixels.length; index += 4) {
        const [red, green, blue] = [pixels[index], pixels[index + 1], pixels[index + 2]];
        if (red < 245 || green < 245 || blue < 245) inked += 1;
        wanted.forEach((colour, at) => {
          if (Math.abs(colour[0] - red) + Math.abs(colour[1] - green) + Math.abs(colour[2] - blue) < 24) seen.add(colours[at]);
        });
      }
      return { error, widthPt: Number.parseFloat(root.getAttribute('width') ?? ''), texts, paths, inked, colours: [...seen] };
    },
    { svg, colours },
  );
}

/** pngHeader reads a PNG's size and resolution from its chunks, in Node. */
export function pngHeader(png: Buffer): { width: number; height: number; dpi: number | null } {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  let dpi: number | null = null;
  for (let offset = 8; offset < png.length; offset += 12 + png.readUInt32BE(offset)) {
    if (png.toString('latin1', offset + 4, offset + 8) === 'pHYs' && png[offset + 16] === 1) dpi = Math.round(png.readUInt32BE(offset + 8) * 0.0254);
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), dpi };
}

/** pngInk decodes a PNG in the page: the share of its pixels that are not white, and the spread of their brightness. */
export async function pngInk(page: Page, png: Buffer): Promise<{ inkedShare: number; brightnessSd: number }> {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(bitmap, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let inked = 0;
    let sum = 0;
    let squares = 0;
    const count = pixels.length / 4;
    for (let index = 0; index < pixels.length; index += 4) {
      const brightness = (pixels[index] + pixels[index + 1] + pixels[index + 2]) / 3;
      if (brightness < 245) inked += 1;
      sum += brightness;
      squares += brightness * brightness;
    }
    return { inkedShare: inked / count, brightnessSd: Math.sqrt(squares / count - (sum / count) ** 2) };
  }, png.toString('base64'));
}

/** expectPng checks a chart's PNG: a column's width or more at 300 dpi, as tall as the SVG says, and not blank. */
export async function expectPng(page: Page, png: Buffer, svgWidthPt: number) {
  const header = pngHeader(png);
  expect(header.dpi).toBe(300);
  expect(header.width).toBe(Math.round((svgWidthPt / 72) * 300));
  expect(header.width).toBeGreaterThanOrEqual(1050);
  expect(header.height).toBeGreaterThan(300);
  const ink = await pngInk(page, png);
  expect(ink.inkedShare).toBeGreaterThan(0.01);
  expect(ink.inkedShare).toBeLessThan(0.9);
  expect(ink.brightnessSd).toBeGreaterThan(10);
}
