import { line, max, min, scaleLinear } from 'd3';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useId, useState } from 'react';
import { AxisBottom, AxisLeft } from './axes';
import { axisTicks } from './axis-ticks';
import { ChartExport } from './chart-export';
import { labelWidth, nearestPoints, peaksAbove, scaleValues, valuesOf, yDomain } from './chart-scales';
import { lineChartTable } from './chart-tables';
import { GridRows } from './grid-rows';
import { useWidth } from './use-width';

export interface LineSeries<Datum> {
  /** Identifies the series among its siblings. */
  key: string;
  /** The legend's text. */
  label: string;
  /** The line's colour (CSS). */
  colour: string;
  /** The points, in order of x. */
  data: Datum[];
  /**
   * Why this series does not set the y axis, when its bursts would flatten the others (undefined: it
   * does). Its values above the axis run along its top, marked above the plot; the legend gives its peak.
   */
  unscaled?: string;
}

export interface LineChartProps<Datum> {
  /** The chart's caption, and the start of its accessible description. */
  title: string;
  /** Where the data come from, the caption of its figure (SVG, PNG): "satlab run r42, iteration 0". */
  source: string;
  /** Shown after the caption: an explanation of what the chart shows (a HelpTip). */
  help?: ReactNode;
  /** One line per series. */
  series: LineSeries<Datum>[];
  /** The x of a datum. */
  x: (datum: Datum) => number;
  /** The y of a datum; null leaves a gap in the line. */
  y: (datum: Datum) => number | null;
  /** The x axis title, with its unit. */
  xLabel: string;
  /** The y axis title, with its unit. */
  yLabel: string;
  /** The x extent; by default from 0 to the largest x. */
  xDomain?: [number, number];
  /** The y axis reaches at least this value, so that values near 0 do not fill the chart with noise. */
  yMinimumTop?: number;
  /** Formats a y value with its unit, for the legend's latest values, hover values and the description. */
  formatValue: (value: number) => string;
  /** Formats an x value with its unit, for hover values. */
  formatX: (value: number) => string;
}

const height = 260;
const fontPx = 14;
const margin = { top: 12, right: 18, bottom: 54 };
/** Between tick labels and the axis line, and the axis title's own height. */
const tickGap = 10;
const titleRoom = 26;

/** latestValue is a series' last y that is not null. */
function latestValue<Datum>(data: Datum[], y: (datum: Datum) => number | null): number | null {
  for (let index = data.length - 1; index >= 0; index -= 1) {
    const value = y(data[index]);
    if (value !== null) return value;
  }
  return null;
}

/**
 * LineChart draws series over a shared linear x and a y from 0 up, at the width of its container
 * (one SVG unit per CSS pixel, so that text keeps its size), with a legend that gives each series'
 * latest value, and the values under the pointer (or, focused, at the sample the arrow keys pick);
 * D3 computes the scales and paths, React renders the SVG.
 */
export function LineChart<Datum>(props: LineChartProps<Datum>) {
  const {
    title,
    source,
    help,
    series,
    x,
    y,
    xLabel,
    yLabel,
    xDomain,
    yMinimumTop,
    formatValue,
    formatX,
  } = props;
  const titleId = useId();
  const [frameRef, width] = useWidth<HTMLDivElement>(560);
  const [hoverX, setHoverX] = useState<number | null>(null);
  const all = series.flatMap((one) => one.data);
  const values = valuesOf(all, y);
  const yScale = scaleLinear()
    .domain(yDomain(scaleValues(series, y), yMinimumTop))
    .nice()
    .clamp(true)
    .range([height - margin.bottom, margin.top]);
  const top = yScale.domain()[1];
  const peaks = peaksAbove(series, y, top);
  const offScale = (one: LineSeries<Datum>) => {
    const peak = peaks.get(one.key);
    return peak === undefined ? '' : `peaks at ${formatValue(peak)}, above the axis`;
  };
  const yTickCount = 5;
  // Room on the left for the widest tick label, then the axis title beside it: they never overlap.
  const yLabels = axisTicks(yScale, { numTicks: yTickCount }).map((tick) => tick.label);
  const labelsWidth = labelWidth(Math.max(1, ...yLabels.map((label) => label.length)), fontPx);
  const left = labelsWidth + tickGap + titleRoom;
  const xScale = scaleLinear()
    .domain(xDomain ?? [Math.min(0, min(all, x) ?? 0), Math.max(max(all, x) ?? 1, 1e-9)])
    .range([left, width - margin.right]);
  const path = line<Datum>()
    .defined((datum) => y(datum) !== null)
    .x((datum) => xScale(x(datum)))
    .y((datum) => yScale(y(datum) ?? 0));
  const latest = series.map((one) => ({ ...one, latest: latestValue(one.data, y) }));
  const description =
    values.length === 0
      ? `${title}: no samples yet.`
      : `${title}: ${values.length} samples; latest ${latest
          .map((one) => `${one.label} ${one.latest === null ? 'none' : formatValue(one.latest)}`)
          .join(', ')}.${series
          .filter((one) => peaks.has(one.key))
          .map((one) => ` ${one.label} ${offScale(one)} (drawn at its top): ${one.unscaled}`)
          .join('')}`;
  const xTickCount = Math.max(2, Math.floor(width / 80));

  const hovered = hoverX === null ? [] : nearestPoints(series, hoverX, x, y);
  const hoverAt = hovered.length > 0 ? x(hovered[0].datum) : null;
  const sampleXs = [...new Set(all.filter((datum) => y(datum) !== null).map(x))].sort((a, b) => a - b);
  const point = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = xScale.invert(((event.clientX - box.left) * width) / box.width);
    setHoverX(at);
  };
  const step = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.key === 'Escape') return setHoverX(null);
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    if (sampleXs.length === 0) return;
    const current = hoverAt === null ? -1 : sampleXs.indexOf(hoverAt);
    const next = current === -1 ? sampleXs.length - 1 : current + (event.key === 'ArrowRight' ? 1 : -1);
    setHoverX(sampleXs[Math.min(sampleXs.length - 1, Math.max(0, next))]);
  };

  return (
    <figure className="line-chart">
      <figcaption>
        {title}
        {help}
      </figcaption>
      <ChartExport
        figure={{
          title,
          source,
          legend: series.map((one) => ({
            label: peaks.has(one.key) ? `${one.label} (${offScale(one)})` : one.label,
            kind: 'line',
            colour: one.colour,
          })),
          table: () => lineChartTable(series, x, y, xLabel, yLabel),
        }}
        redraw={() => <LineChart {...props} />}
      />
      <div className="chart-frame" ref={frameRef}>
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-labelledby={titleId}
          className="chart"
          tabIndex={0}
          onPointerMove={point}
          onPointerLeave={() => setHoverX(null)}
          onKeyDown={step}
          onBlur={() => setHoverX(null)}
        >
          <title id={titleId}>{description}</title>
          <GridRows scale={yScale} numTicks={yTickCount} left={left} right={width - margin.right} />
          {latest.map((one) => (
            <path key={one.key} className="series-line" stroke={one.colour} d={path(one.data) ?? undefined} />
          ))}
          {/* Above the plot, a mark where a series' value is beyond the axis (its line runs along the top). */}
          {latest
            .filter((one) => peaks.has(one.key))
            .map((one) => (
              <g key={`${one.key}-above`} className="off-scale-marks" fill={one.colour} aria-hidden="true">
                {one.data
                  .filter((datum) => (y(datum) ?? top) > top)
                  .map((datum) => (
                    <path key={x(datum)} d="M0,1 L-4,9 L4,9 Z" transform={`translate(${xScale(x(datum))},0)`} />
                  ))}
              </g>
            ))}
          {values.length === 0 && (
            <text className="chart-empty" x={(left + width - margin.right) / 2} y={(margin.top + height - margin.bottom) / 2} textAnchor="middle">
              Waiting for samples…
            </text>
          )}
          {hoverAt !== null && (
            <g className="hover-marks" aria-hidden="true">
              <line className="hover-rule" x1={xScale(hoverAt)} x2={xScale(hoverAt)} y1={margin.top} y2={height - margin.bottom} />
              {hovered.map(({ key, datum }) => (
                <circle
                  key={key}
                  className="hover-point"
                  cx={xScale(x(datum))}
                  cy={yScale(y(datum) ?? 0)}
                  r={4.5}
                  fill={series.find((one) => one.key === key)?.colour}
                />
              ))}
            </g>
          )}
          <AxisBottom scale={xScale} numTicks={xTickCount} offset={height - margin.bottom} title={xLabel} />
          <AxisLeft
            scale={yScale}
            numTicks={yTickCount}
            offset={left}
            title={yLabel}
            titleOffset={labelsWidth + tickGap + titleRoom / 2}
          />
        </svg>
        {hoverAt !== null && (
          <div
            className="hover-values"
            role="status"
            style={xScale(hoverAt) > width / 2 ? { right: width - xScale(hoverAt) + 10 } : { left: xScale(hoverAt) + 10 }}
          >
            <strong>{formatX(hoverAt)}</strong>
            <ul>
              {hovered.map(({ key, datum }) => {
                const one = series.find((candidate) => candidate.key === key);
                return (
                  <li key={key}>
                    <span className="swatch" style={{ background: one?.colour }} aria-hidden="true" />
                    {one?.label}: {formatValue(y(datum) ?? 0)}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </div>
      <ul className="legend" aria-label={`${title}, legend`}>
        {latest.map((one) => (
          <li key={one.key}>
            <svg width="26" height="10" aria-hidden="true">
              <line x1="0" x2="26" y1="5" y2="5" stroke={one.colour} strokeWidth="3" />
            </svg>
            {one.label}
            {one.latest !== null && <strong>{formatValue(one.latest)}</strong>}
            {peaks.has(one.key) && (
              <span className="off-scale" title={one.unscaled}>
                <span aria-hidden="true">▲ </span>
                {offScale(one)}
              </span>
            )}
          </li>
        ))}
      </ul>
    </figure>
  );
}
