import { max, scaleLinear } from 'd3';
import { memo, useId } from 'react';
import { AxisBottom, AxisLeft, ChartExport, useWidth } from '../../../components/charts';
import { burstTable } from '../logic/figures';
import type { BurstBin } from '../logic/loss-pattern';

export interface BurstHistogramProps {
  /** Bursts counted by length. */
  bins: BurstBin[];
  /** The channel that drew the losses, its figure's caption (channelSource). */
  source: string;
}

const height = 300;
const margin = { top: 14, right: 16, bottom: 56, left: 84 };

/** BurstHistogram draws how many bursts of each length of consecutive losses the channel made. */
function BurstHistogramChart(props: BurstHistogramProps) {
  const { bins, source } = props;
  const titleId = useId();
  const [box, width] = useWidth<HTMLDivElement>(560);
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
    <div className="chart-box" ref={box}>
      <div className="chart-toolbar">
        <ChartExport
          figure={{ title: 'Burst lengths', source, table: () => burstTable(bins) }}
          redraw={() => <BurstHistogramChart {...props} />}
        />
      </div>
      <svg width={width} height={height} role="img" aria-labelledby={titleId} className="chart">
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
          scale={x}
          numTicks={Math.min(Math.floor(width / 60), longest)}
          wholeNumbers
          tickFormat={String}
          offset={height - margin.bottom}
          title="Burst length, packets lost in a row"
        />
        <AxisLeft
          scale={y}
          numTicks={5}
          wholeNumbers
          tickFormat={(count: number) => count.toLocaleString('en')}
          offset={margin.left}
          title="Bursts"
          titleOffset={70}
        />
      </svg>
    </div>
  );
}

/** Memoised: the Monte-Carlo's progress re-renders the lab several times a second, not this chart. */
export const BurstHistogram = memo(BurstHistogramChart);
