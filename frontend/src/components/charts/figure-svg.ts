import { type Figure, figureSvg, type LegendItem, type LegendMark } from './figure-layout';

/**
 * A chart's <svg> from the page as standalone markup: every element carries, inline, the computed
 * values of the properties that draw it (the page's CSS classes and variables resolved), so the
 * file renders the same in a browser, an editor or a PDF without the page's style sheets.
 */

/** The properties that draw an SVG element, and whether an element inherits each from its parent. */
const drawingProperties: [property: string, inherited: boolean][] = [
  ['fill', true],
  ['fill-opacity', true],
  ['fill-rule', true],
  ['stroke', true],
  ['stroke-width', true],
  ['stroke-opacity', true],
  ['stroke-dasharray', true],
  ['stroke-dashoffset', true],
  ['stroke-linecap', true],
  ['stroke-linejoin', true],
  ['font-family', true],
  ['font-size', true],
  ['font-weight', true],
  ['font-style', true],
  ['text-anchor', true],
  ['dominant-baseline', true],
  ['letter-spacing', true],
  ['visibility', true],
  ['opacity', false],
  ['text-decoration-line', false],
];

/** Each property's value where nothing sets it (font-family and font-size have none fixed: a root always states them). */
const initialValues: Record<string, string> = {
  fill: 'rgb(0, 0, 0)',
  'fill-opacity': '1',
  'fill-rule': 'nonzero',
  stroke: 'none',
  'stroke-width': '1px',
  'stroke-opacity': '1',
  'stroke-dasharray': 'none',
  'stroke-dashoffset': '0px',
  'stroke-linecap': 'butt',
  'stroke-linejoin': 'miter',
  'font-weight': '400',
  'font-style': 'normal',
  'text-anchor': 'start',
  'dominant-baseline': 'auto',
  'letter-spacing': 'normal',
  visibility: 'visible',
  opacity: '1',
  'text-decoration-line': 'none',
};

/** A computed style, as a function of a property's name. */
export type StyleOf = (property: string) => string;

/**
 * inlineStyle is the style an element needs to draw as computed without style sheets, as
 * [property, value] pairs: each property whose value differs from what the element gets anyway,
 * its parent's value for an inherited property (parent null: the root, which inherits nothing),
 * the initial value otherwise.
 */
export function inlineStyle(own: StyleOf, parent: StyleOf | null): [property: string, value: string][] {
  return drawingProperties.flatMap(([property, inherited]): [string, string][] => {
    const value = own(property);
    const otherwise = inherited && parent ? parent(property) : initialValues[property];
    return value === '' || value === otherwise ? [] : [[property, value]];
  });
}

/** Attributes that serve the page only: keyboard focus. */
const pageOnlyAttributes = ['tabindex'];

export interface StandaloneChart {
  /** The <svg> element's markup, styles inline. */
  markup: string;
  /** Its size in SVG units (CSS pixels as drawn). */
  width: number;
  height: number;
}

/** standaloneChart serialises a chart's <svg> with its computed styles inline, and its size. */
export function standaloneChart(svg: SVGSVGElement): StandaloneChart {
  const box = svg.getBoundingClientRect();
  const width = Number(svg.getAttribute('width')) || box.width;
  const height = Number(svg.getAttribute('height')) || box.height;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const sources = [svg, ...svg.querySelectorAll('*')];
  const clones = [clone, ...clone.querySelectorAll('*')];
  const styles = new Map<Element, CSSStyleDeclaration>(sources.map((element) => [element, getComputedStyle(element)]));
  const styleOf = (element: Element | null): StyleOf | null => {
    const style = element ? styles.get(element) : undefined;
    return style ? (property) => style.getPropertyValue(property) : null;
  };
  const hidden: Element[] = [];
  sources.forEach((source, index) => {
    const copy = clones[index];
    if (source.localName === 'title' || source.localName === 'desc') return;
    if (styles.get(source)?.display === 'none') hidden.push(copy);
    const own = styleOf(source);
    // Through the CSSOM: a page whose Content-Security-Policy has no 'unsafe-inline' for styles
    // refuses a style attribute set as text, not one set property by property.
    const style = (copy as SVGElement).style;
    if (own) for (const [property, value] of inlineStyle(own, source === svg ? null : styleOf(source.parentElement))) style.setProperty(property, value);
    for (const attribute of pageOnlyAttributes) copy.removeAttribute(attribute);
  });
  for (const element of hidden) element.remove();
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  if (!clone.hasAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  return { markup: new XMLSerializer().serializeToString(clone), width, height };
}

/**
 * legendMark is how a legend draws the mark that the chart's element matching selector stands for,
 * in that element's computed colours, width and dashes; null when the chart draws none.
 */
export function legendMark(svg: SVGSVGElement, selector: string, kind: LegendMark['kind']): LegendMark | null {
  const element = svg.querySelector(selector);
  if (!element) return null;
  const style = getComputedStyle(element);
  return {
    kind,
    fill: kind === 'line' ? 'none' : style.fill,
    stroke: style.stroke,
    strokeWidth: Number.parseFloat(style.strokeWidth) || 1,
    dash: style.strokeDasharray || 'none',
  };
}

/** An entry of a figure's legend: a label and the mark it names. */
export interface FigureLegendEntry {
  label: string;
  kind: LegendMark['kind'];
  /** A selector of the chart's element the mark looks like (its colours, width and dashes): ".box-reference". */
  like?: string;
  /** Or the mark's colour, for a line drawn in one (a series). */
  colour?: string;
}

/** What a chart says about itself as a figure, beside what it draws. */
export interface FigureText {
  title: string;
  /** Where the data come from: the figure's caption. */
  source: string;
  legend?: FigureLegendEntry[];
}

/** chartFigure makes a chart drawn in the page (off the screen, at a figure's width) into a standalone figure. */
export function chartFigure(svg: SVGSVGElement, { title, source, legend = [] }: FigureText): Figure {
  const items = legend.flatMap(({ label, kind, like, colour = 'currentColor' }): LegendItem[] => {
    const mark = like
      ? legendMark(svg, like, kind)
      : { kind, fill: kind === 'line' ? 'none' : colour, stroke: colour, strokeWidth: kind === 'line' ? 2.5 : 1, dash: 'none' };
    return mark ? [{ label, mark }] : [];
  });
  return figureSvg({
    chart: standaloneChart(svg),
    title,
    legend: items,
    caption: source,
    fontFamily: getComputedStyle(svg).fontFamily,
  });
}
