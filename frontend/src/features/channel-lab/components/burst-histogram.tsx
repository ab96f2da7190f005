import { max, scaleLinear } from 'd3';
import { useId } from 'react';
import type { BurstBin } from '../logic/loss-pattern';
import { AxisBottom, AxisLeft } from '../../../components/axes';

export interface BurstHistogramProps {
  /** Bursts counted by length. */
  bins: BurstBin[];
}

const width = 560;
const height = 300;
const margin = { top: 14, right: 16, bottom: 52, left: 76 };

/** BurstHistogram draws how many bursts of each length of consecutive losses the channel made. */
export function BurstHistogram({ bins }: BurstHistogramProps) {
  const titleId = useId();
  const longest = max(bins, (bin) => bin.length) ?? 1;
  const x = scaleLinear()
    .domain([0.5, longest + 0.5])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, max(bins, (bin) => bin.count) ?? 1])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const barWidth = Math.max(1, x(1.5) - x(0.5) - 2);
  const summary = bins.map((bin) => `${bin.count} of length ${bin.length}`).join(', ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className="chart">
      <title id={titleId}>{bins.length === 0 ? 'No bursts: nothing was lost.' : `Burst lengths: ${summary}.`}</title>
      {bins.map((bin) => (
        <rect
          key={bin.length}
          className="bar"
          x={x(bin.length) - barWidth / 2}
          y={y(bin.count)}
          width={barWidth}
          height={y(0) - y(bin.count)}
        />
      ))}
      <AxisBottom
        offset={height - margin.bottom}
        range={[margin.left, width - margin.right]}
        ticks={x.ticks(Math.min(10, longest)).filter(Number.isInteger).map((tick) => ({ position: x(tick), label: String(tick) }))}
        title="Burst length (consecutive packets lost)"
      />
      <AxisLeft
        offset={margin.left}
        range={[height - margin.bottom, margin.top]}
        ticks={y.ticks(5).filter(Number.isInteger).map((tick) => ({ position: y(tick), label: String(tick) }))}
        title="Bursts"
      />
    </svg>
  );
}
