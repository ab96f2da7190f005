/**
 * A chart as a figure for a paper: the chart drawn again at a column's width, its title above, its
 * legend and its caption (where the data come from: a run, a campaign, a study) below, in one
 * standalone SVG whose size is given in points. Pure: the chart's own markup comes in as text
 * (figure-svg.ts makes it from the page), so that tests can check the layout.
 */

/** A journal's column: 3.5 in. */
export const columnWidthPt = 3.5 * 72;
/**
 * Charts are drawn for a figure at this width in CSS pixels, their text at its usual 14 px, and the
 * figure is printed a column wide: 14 px of text become 14 × 252 / 392 = 9 pt, a size that reads in
 * print. A chart that needs more room (a box plot of many groups) makes a wider figure, its text
 * the same size.
 */
export const figureDrawWidthPx = 392;
/** Points per SVG unit of a figure. */
export const ptPerUnit = columnWidthPt / figureDrawWidthPx;
/** The PNG's resolution: print quality. */
export const pngDpi = 300;

const padding = 10;
const titlePx = 15;
/** The charts' text, for the figure's description. */
const chartTextPx = 14;
const legendPx = 13;
const captionPx = 13;
const legendRowPx = 22;
const markWidth = 26;
const legendGap = 14;

/**
 * textWidth estimates the width of a line of text at fontPx in a proportional font: 0.52 em a
 * character, a little over DejaVu Sans's (one of the wider fonts) 0.48 for satlab's captions.
 */
export const textWidth = (text: string, fontPx: number) => text.length * fontPx * 0.52;

/** How a legend's mark is drawn: like the chart's own mark it stands for. */
export interface LegendMark {
  kind: 'line' | 'area' | 'point';
  fill: string;
  stroke: string;
  strokeWidth: number;
  /** stroke-dasharray, or "none". */
  dash: string;
}

export interface LegendItem {
  label: string;
  mark: LegendMark;
}

export interface FigureParts {
  /** The chart's own <svg> element as standalone markup (styles inline), and its size in SVG units. */
  chart: { markup: string; width: number; height: number };
  /** Above the chart. */
  title: string;
  /** Under the chart: what each line or mark is. */
  legend: LegendItem[];
  /** Under the legend: where the data come from, "satlab run r42, iteration 0". */
  caption: string;
  /** The page's font family, for every text of the figure. */
  fontFamily: string;
}

export interface Figure {
  /** The standalone SVG document. */
  svg: string;
  /** Its size in SVG units (the chart's pixels). */
  width: number;
  height: number;
  /** Its printed size. */
  widthPt: number;
  heightPt: number;
}

/** escapeXml makes text safe inside an XML element or a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const round = (value: number) => Math.round(value * 100) / 100;

/** wrapText breaks text into lines that fit width at fontPx, between words. */
export function wrapText(text: string, width: number, fontPx: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, fontPx) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  return line ? [...lines, line] : lines;
}

interface PlacedItem extends LegendItem {
  x: number;
  row: number;
}

/** legendRows places the legend's items left to right, on as many rows as width needs. */
export function placeLegend(items: LegendItem[], width: number): PlacedItem[] {
  let x = 0;
  let row = 0;
  return items.map((item) => {
    const itemWidth = markWidth + 6 + textWidth(item.label, legendPx);
    if (x > 0 && x + itemWidth > width) {
      x = 0;
      row += 1;
    }
    const placed = { ...item, x, row };
    x += itemWidth + legendGap;
    return placed;
  });
}

function markMarkup({ kind, fill, stroke, strokeWidth, dash }: LegendMark, y: number): string {
  const paint = `fill="${escapeXml(fill)}" stroke="${escapeXml(stroke)}" stroke-width="${strokeWidth}"${dash === 'none' ? '' : ` stroke-dasharray="${escapeXml(dash)}"`}`;
  if (kind === 'line') return `<line x1="0" x2="${markWidth}" y1="${y}" y2="${y}" ${paint}/>`;
  if (kind === 'point') return `<circle cx="${markWidth / 2}" cy="${y}" r="4.5" ${paint}/>`;
  return `<rect x="2" y="${y - 7}" width="${markWidth - 4}" height="14" ${paint}/>`;
}

/**
 * figureSvg lays a chart out as a figure: title, chart, legend, caption, on a white ground, printed
 * ptPerUnit points per unit (a column wide for a chart drawn at figureDrawWidthPx).
 */
export function figureSvg({ chart, title, legend, caption, fontFamily }: FigureParts): Figure {
  const width = Math.max(chart.width, figureDrawWidthPx);
  const inner = width - 2 * padding;
  // Bold text is wider: the title wraps as if it were a tenth larger.
  const titleLines = wrapText(title, inner, titlePx * 1.1);
  const chartTop = padding + titleLines.length * (titlePx + 4) + 4;
  const placed = placeLegend(legend, inner);
  const legendRows = placed.length === 0 ? 0 : Math.max(...placed.map((item) => item.row)) + 1;
  const legendTop = chartTop + chart.height + 4;
  const captionLines = wrapText(caption, inner, captionPx);
  const captionTop = legendTop + legendRows * legendRowPx + 6;
  const height = Math.ceil(captionTop + captionLines.length * (captionPx + 4) + padding);
  const widthPt = round(width * ptPerUnit);
  const heightPt = round(height * ptPerUnit);
  const legendMarkup = placed
    .map((item) => {
      const y = legendTop + item.row * legendRowPx + legendRowPx / 2;
      return (
        `<g transform="translate(${round(padding + item.x)},0)">${markMarkup(item.mark, y)}` +
        `<text x="${markWidth + 6}" y="${y}" dy="0.32em" font-size="${legendPx}" fill="#14212b">${escapeXml(item.label)}</text></g>`
      );
    })
    .join('');
  const captionMarkup = captionLines
    .map(
      (line, index) =>
        `<text x="${padding}" y="${captionTop + (index + 1) * (captionPx + 4) - 4}" font-size="${captionPx}" fill="#4a5a66">${escapeXml(line)}</text>`,
    )
    .join('');
  const titleMarkup = titleLines
    .map(
      (line, index) =>
        `<text x="${padding}" y="${padding + (index + 1) * (titlePx + 4) - 6}" font-size="${titlePx}" font-weight="700" fill="#14212b">${escapeXml(line)}</text>`,
    )
    .join('');
  const description =
    `${title}. ${caption}. Printed ${round(widthPt / 72)} in wide (${widthPt} pt): ` +
    `its ${chartTextPx}-unit text is ${round(chartTextPx * ptPerUnit)} pt.`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPt}pt" height="${heightPt}pt" viewBox="0 0 ${width} ${height}" ` +
    `font-family="${escapeXml(fontFamily)}">` +
    `<title>${escapeXml(title)}</title><desc>${escapeXml(description)}</desc>` +
    `<rect class="figure-ground" width="${width}" height="${height}" fill="#ffffff"/>` +
    `<g class="figure-title">${titleMarkup}</g>` +
    `<g class="figure-chart" transform="translate(0,${chartTop})">${chart.markup}</g>` +
    `<g class="figure-legend">${legendMarkup}</g>` +
    `<g class="figure-caption">${captionMarkup}</g>` +
    `</svg>\n`;
  return { svg, width, height, widthPt, heightPt };
}

/** pngSize is a figure's size in pixels at dpi: 1050 px wide for a column at 300 dpi. */
export function pngSize({ widthPt, heightPt }: Pick<Figure, 'widthPt' | 'heightPt'>, dpi = pngDpi): { width: number; height: number } {
  return { width: Math.round((widthPt / 72) * dpi), height: Math.round((heightPt / 72) * dpi) };
}

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * figureFileName names a figure's files by its title, then its caption (where its data come from),
 * cut at 100 characters: "satlab-goodput-per-flow-run-r42-geo-ideal-iteration-0".
 */
export function figureFileName(caption: string, title: string): string {
  return `satlab-${slug(title)}-${slug(caption.replace(/^satlab\s+/i, ''))}`.slice(0, 100).replace(/-+$/, '');
}
