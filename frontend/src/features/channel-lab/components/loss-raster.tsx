import { scaleLinear } from 'd3';
import { memo, useId } from 'react';
import { AxisTop, ChartExport, useWidth } from '../../../components/charts';
import { lossTable } from '../logic/figures';

export interface LossRasterProps {
  /** One flag per packet in send order; 1 is a loss. */
  lost: Uint8Array;
  /** Time between packets, in ms. */
  packetMs: number;
  /** Packets per row. */
  packetsPerRow?: number;
  /** Rows drawn; later packets are left out. */
  rows?: number;
  /** The channel that drew the losses, its figure's caption (channelSource). */
  source: string;
}

const rowHeight = 22;
const margin = { left: 96, top: 30, right: 12 };

/**
 * LossRaster draws losses over time as rows of packets, one below the other like lines of text, so
 * that periodic outages line up and bursts show as bars. It draws at its box's width, so that its
 * labels keep their size on any screen.
 */
function LossRasterChart(props: LossRasterProps) {
  const { lost, packetMs, packetsPerRow = 1000, rows = 20, source } = props;
  const titleId = useId();
  const [box, width] = useWidth<HTMLDivElement>(880);
  const x = scaleLinear()
    .domain([0, packetsPerRow])
    .range([margin.left, width - margin.right]);
  const cell = x(1) - x(0);
  const rowCount = Math.min(rows, Math.ceil(lost.length / packetsPerRow));
  const height = margin.top + rowCount * rowHeight + 8;
  const shown = lost.subarray(0, rowCount * packetsPerRow);
  const shownLost = shown.reduce((total, flag) => total + flag, 0);
  return (
    <div className="chart-box" ref={box}>
      <div className="chart-toolbar">
        <ChartExport
          figure={{
            title: `Losses over time, a row every ${packetsPerRow.toLocaleString('en')} packets`,
            source,
            legend: [
              { label: 'lost', kind: 'area', like: '.raster-loss' },
              { label: 'received', kind: 'area', like: '.raster-row' },
            ],
            table: () => lossTable(shown, packetMs),
          }}
          redraw={() => <LossRasterChart {...props} />}
        />
      </div>
      <svg width={width} height={height} role="img" aria-labelledby={titleId} className="chart">
        <title id={titleId}>
          {`Losses of the first ${shown.length} packets, ${packetsPerRow} per row (${fmt(packetsPerRow * packetMs)} ms): ${shownLost} lost.`}
        </title>
        <AxisTop
          scale={x}
          numTicks={Math.max(2, Math.min(5, Math.floor(width / 140)))}
          tickFormat={(packet: number) => `+${fmt(packet * packetMs)} ms`}
          offset={26}
          labelsOnly
          labelClassName="tick-label"
        />
        {Array.from({ length: rowCount }, (_, row) => (
          <g key={row} transform={`translate(0,${margin.top + row * rowHeight})`}>
            <text className="tick-label" x={margin.left - 8} y={(rowHeight - 4) / 2} dy="0.32em" textAnchor="end">
              {fmt(row * packetsPerRow * packetMs)} ms
            </text>
            <rect className="raster-row" x={margin.left} width={width - margin.right - margin.left} height={rowHeight - 4} />
            {lossRuns(shown.subarray(row * packetsPerRow, (row + 1) * packetsPerRow)).map(([first, count]) => (
              <rect key={first} className="raster-loss" x={x(first)} width={Math.max(cell * count, 1.5)} height={rowHeight - 4} />
            ))}
          </g>
        ))}
      </svg>
    </div>
  );
}

/**
 * lossRuns finds the runs of consecutive losses in a row, as [first packet, length]: one rectangle
 * per burst rather than per packet keeps the raster quick to draw while the page stays interactive.
 */
export function lossRuns(lost: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  for (let index = 0; index < lost.length; index += 1) {
    if (!lost[index]) continue;
    const first = index;
    while (index + 1 < lost.length && lost[index + 1]) index += 1;
    runs.push([first, index - first + 1]);
  }
  return runs;
}

function fmt(ms: number): string {
  return Number.isInteger(ms) ? ms.toLocaleString('en') : ms.toFixed(1);
}

/** Memoised: the Monte-Carlo's progress re-renders the lab several times a second, not this chart. */
export const LossRaster = memo(LossRasterChart);
