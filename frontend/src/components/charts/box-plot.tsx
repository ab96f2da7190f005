import { extent, scaleBand, scaleLinear } from 'd3';
import { useId } from 'react';
import { type BoxStats, boxStats } from '../../lib/statistics';
import { AxisBottom, AxisLeft } from './axes';
import { ChartExport } from './chart-export';
import { boxPlotTable } from './chart-tables';
import { GridRows } from './grid-rows';
import { useWidth } from './use-width';

export interface BoxPlotGroup {
  /** Identifies the group; data name it through the group accessor. */
  key: string;
  /** The group's tick label under its box. */
  label: string;
}

export interface BoxPlotProps<Datum> {
  /** The chart's caption, and the start of its accessible description. */
  title: string;
  /** Where the data come from, the caption of its figure (SVG, PNG): "satlab campaign c7". */
  source: string;
  /** What a point is, for the figure's legend: "a run". */
  pointLabel: string;
  /** The groups along x, in order, each with a box of its data's values. */
  groups: BoxPlotGroup[];
  /** Every point, drawn over the boxes. */
  data: Datum[];
  /** The key of a datum's group. */
  group: (datum: Datum) => string;
  value: (datum: Datum) => number;
  /** A point's tooltip: which run it is, and its value. */
  describe: (datum: Datum) => string;
  /** The x axis title: what tells the groups apart. */
  xLabel: string;
  /** The y axis title, with its unit. */
  yLabel: string;
  /** Formats a value with its unit, for the description. */
  formatValue: (value: number) => string;
  /** Values to compare each box with (a published median), drawn across their group's box. */
  references?: { group: string; value: number }[];
  /** What the references are, for the legend and the description: "published median". */
  referenceLabel?: string;
  /**
   * Whether a datum is censored: its true value is at least value(datum) (a run the time limit
   * stopped). It counts at its bound in the box, and is drawn hollow.
   */
  censored?: (datum: Datum) => boolean;
  /** What a censored point is, for the legend: "a run the time limit stopped (at least)". */
  censoredLabel?: string;
}

const height = 300;
const margin = { top: 14, right: 18, bottom: 56, left: 76 };
/** Wide enough for a label such as {"k":5,"z":100} under each box. */
const minimumBandWidth = 130;
const pointRadius = 4;

/**
 * BoxPlot draws, per group, the box from the first to the third quartile with the median, Tukey's
 * whiskers, and every value as a point spread across the box so that none hides another (a group
 * with one value shows its point and median only). D3 computes the scales, React renders the SVG.
 */
export function BoxPlot<Datum>(props: BoxPlotProps<Datum>) {
  const {
    title,
    source,
    pointLabel,
    groups,
    data,
    group,
    value,
    describe,
    xLabel,
    yLabel,
    formatValue,
    references = [],
    referenceLabel = 'reference',
    censored = () => false,
    censoredLabel = 'censored: at least its value',
  } = props;
  const titleId = useId();
  // Drawn at its container's width (one SVG unit per pixel: text keeps its size), or wider, in a
  // scroll box, when the groups' labels need more.
  const [frameRef, frameWidth] = useWidth<HTMLDivElement>(560);
  const width = Math.max(frameWidth, margin.left + margin.right + groups.length * minimumBandWidth);
  const byGroup = new Map(groups.map((one) => [one.key, data.filter((datum) => group(datum) === one.key)]));
  const stats = new Map<string, BoxStats | null>(groups.map((one) => [one.key, boxStats((byGroup.get(one.key) ?? []).map(value))]));
  const [low = 0, high = 1] = extent([...data.map(value), ...references.map((reference) => reference.value)]);
  // From 0, so that boxes compare by their height (a figure that cannot be negative: times,
  // counts), and a little room above the highest point, so that it does not sit on the frame.
  const padding = (high - low) * 0.08 || Math.abs(high) * 0.05 || 1;
  const yScale = scaleLinear()
    .domain([low >= 0 ? 0 : low - padding, high + padding])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const xScale = scaleBand<string>()
    .domain(groups.map((one) => one.key))
    .range([margin.left, width - margin.right])
    .padding(0.3);
  const band = xScale.bandwidth();
  const singleRuns = groups.filter((one) => stats.get(one.key)?.n === 1);
  const yTickCount = 6;
  const labelOf = new Map(groups.map((one) => [one.key, one.label]));
  const description = `${title}: ${groups
    .map((one) => {
      const summary = stats.get(one.key);
      const bounds = (byGroup.get(one.key) ?? []).filter(censored).length;
      const measured = summary
        ? `${one.label}: median ${bounds > 0 ? 'at least ' : ''}${formatValue(summary.median)} of ${summary.n}${bounds > 0 ? ` (${bounds} at least their value)` : ''}`
        : `${one.label}: no values`;
      const compared = references.filter((reference) => reference.group === one.key);
      return [measured, ...compared.map((reference) => `${referenceLabel} ${formatValue(reference.value)}`)].join(', ');
    })
    .join('; ')}.`;

  return (
    <figure className="box-plot">
      <figcaption>{title}</figcaption>
      <ChartExport
        figure={{
          title,
          source,
          legend: [
            { label: 'quartiles, median', kind: 'area', like: '.box' },
            { label: 'Tukey whiskers', kind: 'line', like: '.box-whisker' },
            { label: pointLabel, kind: 'point', like: '.box-point' },
            ...(data.some(censored) ? [{ label: censoredLabel, kind: 'point' as const, like: '.box-point-censored' }] : []),
            { label: referenceLabel, kind: 'line', like: '.box-reference' },
          ],
          table: () =>
            boxPlotTable({
              data,
              group,
              value,
              describe,
              labelOf: (key) => labelOf.get(key) ?? key,
              references,
              referenceLabel,
              xLabel,
              yLabel,
            }),
        }}
        redraw={() => <BoxPlot {...props} />}
      />
      <div className="chart-frame table-scroll" ref={frameRef}>
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className="chart">
          <title id={titleId}>{description}</title>
          <GridRows scale={yScale} numTicks={yTickCount} left={margin.left} right={width - margin.right} />
          {groups.map((one) => {
            const summary = stats.get(one.key);
            const left = xScale(one.key) ?? 0;
            const centre = left + band / 2;
            const points = byGroup.get(one.key) ?? [];
            // Points side by side across 70 % of the box, in their order (iterations), no overlap while they fit.
            const step = points.length > 1 ? Math.min(pointRadius * 2.5, (band * 0.7) / (points.length - 1)) : 0;
            return (
              <g key={one.key} className="box-group">
                {summary ? (
                  <>
                    <line className="box-whisker" x1={centre} x2={centre} y1={yScale(summary.whiskerLow)} y2={yScale(summary.q1)} />
                    <line className="box-whisker" x1={centre} x2={centre} y1={yScale(summary.q3)} y2={yScale(summary.whiskerHigh)} />
                    {[summary.whiskerLow, summary.whiskerHigh].map((end, index) => (
                      <line key={index} className="box-whisker" x1={centre - band / 6} x2={centre + band / 6} y1={yScale(end)} y2={yScale(end)} />
                    ))}
                    <rect className="box" x={left} width={band} y={yScale(summary.q3)} height={yScale(summary.q1) - yScale(summary.q3)} />
                    <line className="box-median" x1={left} x2={left + band} y1={yScale(summary.median)} y2={yScale(summary.median)} />
                  </>
                ) : (
                  <text className="chart-empty" x={centre} y={(margin.top + height - margin.bottom) / 2} textAnchor="middle">
                    no values
                  </text>
                )}
                {points.map((datum, index) => (
                  <circle
                    key={index}
                    className={censored(datum) ? 'box-point box-point-censored' : 'box-point'}
                    cx={centre + (index - (points.length - 1) / 2) * step}
                    cy={yScale(value(datum))}
                    r={pointRadius}
                  >
                    <title>{describe(datum)}</title>
                  </circle>
                ))}
                {references
                  .filter((reference) => reference.group === one.key)
                  .map((reference, index) => (
                    <line
                      key={`reference-${index}`}
                      className="box-reference"
                      x1={left - band * 0.12}
                      x2={left + band * 1.12}
                      y1={yScale(reference.value)}
                      y2={yScale(reference.value)}
                    />
                  ))}
              </g>
            );
          })}
          <AxisBottom
            scale={xScale}
            tickFormat={(key: string) => labelOf.get(key) ?? key}
            offset={height - margin.bottom}
            title={xLabel}
          />
          <AxisLeft scale={yScale} numTicks={yTickCount} offset={margin.left} title={yLabel} />
        </svg>
      </div>
      {singleRuns.length > 0 && (
        <p className="notice" role="note">
          One value only for {singleRuns.map((one) => one.label).join(', ')}: a box needs several to show a spread, and its median
          is that one value. More iterations would show how much it varies.
        </p>
      )}
      {references.length > 0 && (
        <p className="box-legend">
          <svg width="34" height="12" aria-hidden="true">
            <line className="box-reference" x1="1" x2="33" y1="6" y2="6" />
          </svg>{' '}
          {referenceLabel}
        </p>
      )}
    </figure>
  );
}
