import { scaleLinear } from 'd3';
import { useId } from 'react';

export interface LossRasterProps {
  /** One flag per packet in send order; 1 is a loss. */
  lost: Uint8Array;
  /** Time between packets, in ms. */
  packetMs: number;
  /** Packets per row. */
  packetsPerRow?: number;
  /** Rows drawn; later packets are left out. */
  rows?: number;
}

const width = 880;
const rowHeight = 16;
const margin = { left: 84, top: 26 };

/**
 * LossRaster draws losses over time as rows of packets, one below the other like lines of text, so
 * that periodic outages line up and bursts show as bars.
 */
export function LossRaster({ lost, packetMs, packetsPerRow = 1000, rows = 20 }: LossRasterProps) {
  const titleId = useId();
  const x = scaleLinear().domain([0, packetsPerRow]).range([margin.left, width - 8]);
  const cell = x(1) - x(0);
  const rowCount = Math.min(rows, Math.ceil(lost.length / packetsPerRow));
  const height = margin.top + rowCount * rowHeight + 8;
  const shown = lost.subarray(0, rowCount * packetsPerRow);
  const shownLost = shown.reduce((total, flag) => total + flag, 0);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className="chart">
      <title id={titleId}>
        {`Losses of the first ${shown.length} packets, ${packetsPerRow} per row (${fmt(packetsPerRow * packetMs)} ms): ${shownLost} lost.`}
      </title>
      {x.ticks(5).map((tick) => (
        <text key={tick} className="tick-label" x={x(tick)} y={16} textAnchor="middle">
          +{fmt(tick * packetMs)} ms
        </text>
      ))}
      {Array.from({ length: rowCount }, (_, row) => (
        <g key={row} transform={`translate(0,${margin.top + row * rowHeight})`}>
          <text className="tick-label" x={margin.left - 8} y={rowHeight / 2} dy="0.32em" textAnchor="end">
            {fmt(row * packetsPerRow * packetMs)} ms
          </text>
          <rect className="raster-row" x={margin.left} width={width - 8 - margin.left} height={rowHeight - 4} />
          {Array.from(shown.subarray(row * packetsPerRow, (row + 1) * packetsPerRow), (flag, column) =>
            flag ? <rect key={column} className="raster-loss" x={x(column)} width={Math.max(cell, 1.5)} height={rowHeight - 4} /> : null,
          )}
        </g>
      ))}
    </svg>
  );
}

function fmt(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}
