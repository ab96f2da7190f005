import { extent, line, scaleLinear, scaleLog } from 'd3';
import { useId, useState } from 'react';
import { AxisBottom, AxisLeft, ChartExport, GridRows, decades, useWidth } from '../../../components/charts';
import { type DrawnPoint, drawnPoints, residualTable } from '../logic/figures';
import { formatPercent } from '../logic/format';
import type { ResidualPoint } from '../logic/residual-curve';

export interface ResidualChartProps {
  /** One Monte-Carlo point per k, in order of k; each refines while the computation runs. */
  points: ResidualPoint[];
  /** The window size, for the title. */
  z: number;
  /** Source packets per point asked for: the smallest residual loss a point can measure is 1 / sources. */
  sources: number;
  /** The channel, the code and the Monte-Carlo's workers: its figure's caption. */
  source: string;
}

const height = 320;
// Room on the left for tick labels as long as "0.00001 %" and the axis title beyond them.
const margin = { top: 16, right: 20, bottom: 56, left: 104 };

/** describePoint says what one point of the curve is, for the hover and keyboard readout. */
export function describePoint(point: DrawnPoint, z: number): string {
  const interval = `95 % interval ${formatPercent(point.lower)} to ${formatPercent(point.upper)}`;
  return (
    `S(${point.k},${z}): residual loss ${formatPercent(point.residualLoss)} (${interval}), ` +
    `channel loss ${formatPercent(point.channelLoss)}, ${point.sources.toLocaleString('en')} sources counted.`
  );
}

/**
 * ResidualChart draws the residual loss after S(k,z) against k on a log scale, each point with its
 * 95 % interval, and the channel's own loss as a dashed line; a point that lost nothing sits on
 * the floor of 1 / sources, hollow, its bar reaching up to what it cannot rule out. Pointing at
 * the chart, or focusing it and pressing the arrow keys, reads a point's values out.
 */
export function ResidualChart(props: ResidualChartProps) {
  const { points, z, sources, source } = props;
  const titleId = useId();
  const readoutId = useId();
  const [box, width] = useWidth<HTMLDivElement>(560);
  const [selected, setSelected] = useState<number>();
  const drawn = drawnPoints(points);
  const floor = 1 / sources;
  const [kMin = 1, kMax = 1] = extent(points, (point) => point.k);
  const x = scaleLinear()
    .domain(kMin === kMax ? [kMin - 1, kMax + 1] : [kMin, kMax])
    .range([margin.left, width - margin.right]);
  const y = scaleLog()
    .domain([floor, 1])
    .range([height - margin.bottom, margin.top])
    .clamp(true);
  const position = (fraction: number) => y(Math.max(fraction, floor));
  const residualPath = line<DrawnPoint>()
    .x((point) => x(point.k))
    .y((point) => position(point.residualLoss))(drawn);
  const channelPath = line<DrawnPoint>()
    .x((point) => x(point.k))
    .y((point) => position(point.channelLoss))(drawn);
  const yTicks = decades(y);
  const shown = selected === undefined ? undefined : drawn[Math.min(selected, drawn.length - 1)];

  const nearest = (pixelX: number) => {
    let best = 0;
    drawn.forEach((point, index) => {
      if (Math.abs(x(point.k) - pixelX) < Math.abs(x(drawn[best].k) - pixelX)) best = index;
    });
    return best;
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (drawn.length === 0) return;
    const steps: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    if (event.key in steps) {
      event.preventDefault();
      setSelected((current) => Math.max(0, Math.min(drawn.length - 1, (current ?? -steps[event.key]) + steps[event.key])));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setSelected(event.key === 'Home' ? 0 : drawn.length - 1);
    }
  };

  return (
    <div className="chart-box" ref={box}>
      <div className="chart-toolbar">
        <ChartExport
          figure={{ title: `Residual loss after S(k,${z})`, source, table: () => residualTable(points) }}
          redraw={() => <ResidualChart {...props} />}
        />
      </div>
      <div
        className="chart-focus"
        tabIndex={0}
        role="group"
        aria-label="Residual loss per k: arrow keys read the points"
        aria-describedby={readoutId}
        onKeyDown={onKeyDown}
        onBlur={() => setSelected(undefined)}
      >
        <svg
          width={width}
          height={height}
          role="img"
          aria-labelledby={titleId}
          className="chart"
          onPointerMove={(event) => {
            if (drawn.length === 0) return;
            const bounds = event.currentTarget.getBoundingClientRect();
            setSelected(nearest(event.clientX - bounds.left));
          }}
          onPointerLeave={() => setSelected(undefined)}
        >
          <title id={titleId}>{`Residual loss after S(k,${z}) for k from ${kMin} to ${kMax}, log scale, with 95 % intervals.`}</title>
          <GridRows scale={y} tickValues={yTicks} left={margin.left} right={width - margin.right} />
          {channelPath && <path className="channel-line" d={channelPath} />}
          {residualPath && <path className="residual-line" d={residualPath} />}
          {shown && <line className="hover-guide" x1={x(shown.k)} x2={x(shown.k)} y1={margin.top} y2={height - margin.bottom} />}
          {drawn.map((point) => (
            <g key={point.k}>
              <IntervalMark x={x(point.k)} lower={position(point.lower)} upper={position(point.upper)} />
              <circle
                className={[
                  'residual-point',
                  point.residualLoss === 0 && 'residual-none',
                  point === shown && 'residual-selected',
                ]
                  .filter(Boolean)
                  .join(' ')}
                cx={x(point.k)}
                cy={position(point.residualLoss)}
                r={point === shown ? 7 : 5}
              />
            </g>
          ))}
          <g className="chart-legend" transform={`translate(${width - margin.right - 200},${margin.top + 8})`}>
            <line className="residual-line" x2={26} />
            <IntervalMark x={13} lower={8} upper={-8} />
            <circle className="residual-point" cx={13} cy={0} r={5} />
            <text x={32} dy="0.32em">
              after S(k,{z}), 95 % interval
            </text>
            <line className="channel-line" x2={26} y1={22} y2={22} />
            <text x={32} y={22} dy="0.32em">
              lost by the channel
            </text>
          </g>
          <AxisBottom
            scale={x}
            numTicks={Math.min(Math.floor(width / 60), kMax - kMin + 1)}
            wholeNumbers
            tickFormat={String}
            offset={height - margin.bottom}
            title="k, source packets per repair"
          />
          <AxisLeft
            scale={y}
            tickValues={yTicks}
            tickFormat={formatPercent}
            offset={margin.left}
            title="Sources lost after FEC"
            titleOffset={90}
          />
        </svg>
      </div>
      <p id={readoutId} className="chart-readout" aria-live="polite">
        {shown ? describePoint(shown, z) : 'Point at the chart, or focus it and press the arrow keys, to read a point.'}
      </p>
    </div>
  );
}

/**
 * IntervalMark is a point's 95 % interval: a bar from its lower to its upper end, each end capped
 * wider than the point's dot, so that an interval narrower than the dot still shows (at the
 * default zoom most are: the legend must not promise bars nobody can see).
 */
function IntervalMark({ x, lower, upper }: { x: number; lower: number; upper: number }) {
  const cap = 8;
  return (
    <g className="interval-mark">
      <line className="interval-bar" x1={x} x2={x} y1={lower} y2={upper} />
      <line className="interval-cap" x1={x - cap} x2={x + cap} y1={lower} y2={lower} />
      <line className="interval-cap" x1={x - cap} x2={x + cap} y1={upper} y2={upper} />
    </g>
  );
}
