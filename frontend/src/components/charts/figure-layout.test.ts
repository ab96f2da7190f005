import { describe, expect, it } from 'vitest';
import {
  columnWidthPt,
  escapeXml,
  figureDrawWidthPx,
  figureFileName,
  figureSvg,
  placeLegend,
  pngSize,
  ptPerUnit,
  textWidth,
  wrapText,
} from './figure-layout';

const line = { kind: 'line' as const, fill: 'none', stroke: '#0b5cad', strokeWidth: 2.5, dash: 'none' };
const chart = (width: number) => ({ markup: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="260"></svg>`, width, height: 260 });

describe('figureSvg', () => {
  const figure = figureSvg({
    chart: chart(figureDrawWidthPx),
    title: 'Goodput per flow',
    legend: [
      { label: 'flow 0 (tcp cubic)', mark: line },
      { label: 'flow 1 (tcp bbr)', mark: { ...line, stroke: '#e67e22' } },
    ],
    caption: 'satlab run r42 (geo-ideal), iteration 0',
    fontFamily: '"Segoe UI", system-ui, sans-serif',
  });

  it('is a column wide in points, its chart’s 14 px text 9 pt', () => {
    expect(figure.widthPt).toBe(columnWidthPt);
    expect(14 * ptPerUnit).toBeCloseTo(9, 6);
    expect(figure.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="252pt" height="[\d.]+pt" viewBox="0 0 392 \d+"/);
    expect(figure.heightPt).toBeCloseTo(figure.height * ptPerUnit, 1);
  });

  it('holds its title, the chart, a legend entry per series and the caption naming the run', () => {
    expect(figure.svg).toContain('<title>Goodput per flow</title>');
    expect(figure.svg).toContain('font-weight="700" fill="#14212b">Goodput per flow</text>');
    expect(figure.svg).toContain('<g class="figure-chart" transform="translate(0,33)"><svg');
    expect(figure.svg).toContain('>flow 0 (tcp cubic)</text>');
    expect(figure.svg).toContain('stroke="#e67e22"');
    expect(figure.svg).toContain('>satlab run r42 (geo-ideal), iteration 0</text>');
    expect(figure.svg).toContain('font-family="&#34;Segoe UI&#34;, system-ui, sans-serif"');
    // Below the chart: the legend's row, then the caption's line.
    expect(figure.height).toBeGreaterThan(33 + 260 + 22 + 17);
  });

  it('says its printed size and its text size', () => {
    expect(figure.svg).toContain('Printed 3.5 in wide (252 pt): its 14-unit text is 9 pt.');
  });

  it('is wider than a column for a chart that needs more room, its text the same size', () => {
    const wide = figureSvg({ chart: chart(784), title: 't', legend: [], caption: 'c', fontFamily: 'serif' });
    expect(wide.widthPt).toBe(504);
  });

  it('wraps a title too long for a line', () => {
    const title = 'Download goodput, Mbit/s: ngtcp2-bbr2 · ngtcp2-bbr2 on the 20/2 link beside an upload';
    const long = figureSvg({ chart: chart(392), title, legend: [], caption: 'c', fontFamily: 'serif' });
    const lines = [...long.svg.matchAll(/font-weight="700" fill="#14212b">([^<]+)<\/text>/g)].map((match) => match[1]);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe(title);
  });

  it('escapes what would break the XML', () => {
    const odd = figureSvg({ chart: chart(392), title: 'a < b & "c"', legend: [], caption: "it's", fontFamily: 'serif' });
    expect(odd.svg).toContain('<title>a &#60; b &#38; &#34;c&#34;</title>');
    expect(odd.svg).toContain('>it&#39;s</text>');
    expect(escapeXml('<&>')).toBe('&#60;&#38;&#62;');
  });
});

describe('placeLegend', () => {
  it('starts a new row when an entry would not fit', () => {
    const items = ['flow 0 (tcp cubic)', 'flow 1 (tcp cubic)', 'flow 2 (tcp cubic)'].map((label) => ({ label, mark: line }));
    expect(placeLegend(items, 372).map((item) => [item.row, item.x > 0])).toEqual([
      [0, false],
      [0, true],
      [1, false],
    ]);
  });
});

describe('wrapText', () => {
  it('breaks between words within the width', () => {
    const caption = 'satlab channel lab: Gilbert-Elliott per time step (seed 1, p 0.01, q 0.167, stepMs 10), a packet every 1 ms';
    const lines = wrapText(caption, 372, 13);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => textWidth(line, 13) <= 372)).toBe(true);
    expect(lines.join(' ')).toBe(caption);
  });
});

describe('pngSize', () => {
  it('is 1050 pixels wide for a column at 300 dpi', () => {
    expect(pngSize({ widthPt: 252, heightPt: 216 })).toEqual({ width: 1050, height: 900 });
  });
});

describe('figureFileName', () => {
  it('names a figure by its title and caption, in lower case and hyphens', () => {
    expect(figureFileName('satlab run r42 (geo-ideal), iteration 0', 'Goodput per flow')).toBe('satlab-goodput-per-flow-run-r42-geo-ideal-iteration-0');
    expect(figureFileName('a campaign', 'Download time')).toBe('satlab-download-time-a-campaign');
  });

  it('keeps the title of a long caption, within 100 characters', () => {
    const name = figureFileName('satlab channel lab: Gilbert-Elliott per time step (seed 1, p 0.01573208263276403, q 0.5988)', 'Burst lengths');
    expect(name).toBe('satlab-burst-lengths-channel-lab-gilbert-elliott-per-time-step-seed-1-p-0-01573208263276403-q-0-5988');
    expect(name.length).toBeLessThanOrEqual(100);
  });
});
