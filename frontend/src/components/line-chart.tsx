import { line, max, min, scaleLinear } from 'd3';
import { useId } from 'react';
import { AxisBottom, AxisLeft } from './axes';

export interface LineSeries<Datum> {
  /** Identifies the series among its siblings. */
  key: string;
  /** The legend's text. */
  label: string;
  /** The line's colour (CSS). */
  colour: string;
  /** The points, in order of x. */
  data: Datum[];
}

export interface LineChartProps<Datum> {
  /** The chart's caption, and the start of its accessible description. */
  title: string;
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
  /** Formats a y value with its unit, for the legend's latest values and the description. */
  formatValue: (value: number) => string;
}

const width = 560;
const height = 250;
const margin = { top: 12, right: 18, bottom: 50, left: 76 };

/** latestValue is a series' last y that is not null. */
function latestValue<Datum>(data: Datum[], y: (datum: Datum) => number | null): number | null {
  for (let index = data.length - 1; index >= 0; index -= 1) {
    const value = y(data[index]);
    if (value !== null) return value;
  }
  return null;
}

/**
 * LineChart draws series over a shared linear x and a y from 0 up, with a legend that gives each
 * series' latest value; D3 computes the scales and paths, React renders the SVG.
 */
export function LineChart<Datum>({ title, series, x, y, xLabel, yLabel, xDomain, formatValue }: LineChartProps<Datum>) {
  const titleId = useId();
  const all = series.flatMap((one) => one.data);
  const values = all.map(y).filter((value): value is number => value !== null);
  const xScale = scaleLinear()
    .domain(xDomain ?? [Math.min(0, min(all, x) ?? 0), Math.max(max(all, x) ?? 1, 1e-9)])
    .range([margin.left, width - margin.right]);
  const yScale = scaleLinear()
    .domain([Math.min(0, min(values) ?? 0), Math.max(max(values) ?? 0, 0) || 1])
    .nice()
    .range([height - margin.bottom, margin.top]);
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
          .join(', ')}.`;
  const xTicks = xScale.ticks(8);
  const yTicks = yScale.ticks(5);
  const xFormat = xScale.tickFormat(8);
  const yFormat = yScale.tickFormat(5);
  return (
    <figure className="line-chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className="chart">
        <title id={titleId}>{description}</title>
        {yTicks.map((tick) => (
          <line key={tick} className="grid" x1={margin.left} x2={width - margin.right} y1={yScale(tick)} y2={yScale(tick)} />
        ))}
        {latest.map((one) => (
          <path key={one.key} className="series-line" stroke={one.colour} d={path(one.data) ?? undefined} />
        ))}
        {values.length === 0 && (
          <text className="chart-empty" x={(margin.left + width - margin.right) / 2} y={(margin.top + height - margin.bottom) / 2} textAnchor="middle">
            Waiting for samples…
          </text>
        )}
        <AxisBottom
          offset={height - margin.bottom}
          range={[margin.left, width - margin.right]}
          ticks={xTicks.map((tick) => ({ position: xScale(tick), label: xFormat(tick) }))}
          title={xLabel}
        />
        <AxisLeft
          offset={margin.left}
          range={[height - margin.bottom, margin.top]}
          ticks={yTicks.map((tick) => ({ position: yScale(tick), label: yFormat(tick) }))}
          title={yLabel}
        />
      </svg>
      <ul className="legend" aria-label={`${title}, legend`}>
        {latest.map((one) => (
          <li key={one.key}>
            <svg width="26" height="10" aria-hidden="true">
              <line x1="0" x2="26" y1="5" y2="5" stroke={one.colour} strokeWidth="3" />
            </svg>
            {one.label}
            {one.latest !== null && <strong>{formatValue(one.latest)}</strong>}
          </li>
        ))}
      </ul>
    </figure>
  );
}
