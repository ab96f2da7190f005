import { extent, line, scaleLinear, scaleLog } from 'd3';
import { useId } from 'react';
import type { ResidualLossResult } from '../logic/residual-loss';
import { AxisBottom, AxisLeft } from '../../../components/axes';

export interface ResidualChartProps {
  /** One Monte-Carlo result per k, in order of k. */
  points: ResidualLossResult[];
  /** Every k of the request, so that the x axis does not move while points arrive. */
  ks: number[];
  /** The window size, for the title. */
  z: number;
  /** Source packets per point: the smallest residual loss a point can measure is 1 / sources. */
  sources: number;
}

const width = 560;
const height = 300;
const margin = { top: 14, right: 20, bottom: 52, left: 76 };

export const formatFraction = (fraction: number) =>
  fraction === 0 ? '0' : fraction >= 0.001 ? `${(fraction * 100).toPrecision(3)} %` : fraction.toExponential(1);

/**
 * ResidualChart draws the residual loss after S(k,z) against k on a log scale, with the channel's
 * own loss as a dashed line; a point that lost nothing sits on the floor of 1 / sources, hollow.
 */
export function ResidualChart({ points, ks, z, sources }: ResidualChartProps) {
  const titleId = useId();
  const floor = 1 / sources;
  const [kMin = 1, kMax = 1] = extent(ks);
  const x = scaleLinear()
    .domain(kMin === kMax ? [kMin - 1, kMax + 1] : [kMin, kMax])
    .range([margin.left, width - margin.right]);
  const y = scaleLog()
    .domain([floor, 1])
    .range([height - margin.bottom, margin.top])
    .clamp(true);
  const position = (fraction: number) => y(Math.max(fraction, floor));
  const residualPath = line<ResidualLossResult>()
    .x((point) => x(point.k))
    .y((point) => position(point.residualLoss))(points);
  const channelPath = line<ResidualLossResult>()
    .x((point) => x(point.k))
    .y((point) => position(point.channelLoss))(points);
  const decades = y.ticks().filter((tick) => Math.log10(tick) % 1 === 0);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className="chart">
      <title id={titleId}>{`Residual loss after S(k,${z}) for k from ${kMin} to ${kMax}, log scale.`}</title>
      {decades.map((tick) => (
        <line key={tick} className="grid" x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
      ))}
      {channelPath && <path className="channel-line" d={channelPath} />}
      {residualPath && <path className="residual-line" d={residualPath} />}
      {points.map((point) => (
        <circle
          key={point.k}
          className={point.residualLoss === 0 ? 'residual-point residual-none' : 'residual-point'}
          cx={x(point.k)}
          cy={position(point.residualLoss)}
          r={5}
        />
      ))}
      <g className="chart-legend" transform={`translate(${width - margin.right - 190},${margin.top + 6})`}>
        <line className="residual-line" x2={26} />
        <text x={32} dy="0.32em">
          after S(k,{z})
        </text>
        <line className="channel-line" x2={26} y1={18} y2={18} />
        <text x={32} y={18} dy="0.32em">
          lost by the channel
        </text>
      </g>
      <AxisBottom
        offset={height - margin.bottom}
        range={[margin.left, width - margin.right]}
        ticks={x.ticks(Math.min(10, kMax - kMin + 1)).filter(Number.isInteger).map((tick) => ({ position: x(tick), label: String(tick) }))}
        title="k, source packets per repair"
      />
      <AxisLeft
        offset={margin.left}
        range={[height - margin.bottom, margin.top]}
        ticks={decades.map((tick) => ({ position: y(tick), label: tick === 1 ? '100 %' : tick.toExponential(0) }))}
        title="Packets lost after FEC"
      />
    </svg>
  );
}
