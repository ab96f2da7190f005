import { type ChartTable, columnHeader } from '../../../components/charts';
import { describeChannel } from '../../../lib/channel';
import type { ChannelConfig } from '../../../lib/codec';
import type { BurstBin } from './loss-pattern';
import type { ResidualPoint } from './residual-curve';
import { type ResidualEstimate, residualEstimate } from './residual-interval';

/**
 * The lab's charts as figures: where their data come from (the channel, its seed, the code) for
 * the caption, and what they draw as tables, for CSV. Losses are percentages here as on the axes.
 */

/** A point of the residual-loss curve as drawn: its estimate and the channel's loss. */
export interface DrawnPoint extends ResidualEstimate {
  k: number;
  channelLoss: number;
  sources: number;
}

/** drawnPoints are the curve's points that counted a source, as the chart draws them. */
export function drawnPoints(points: ResidualPoint[]): DrawnPoint[] {
  return points
    .filter((point) => point.sources > 0)
    .map((point) => ({
      k: point.k,
      sources: point.sources,
      channelLoss: point.packets === 0 ? 0 : point.packetsLost / point.packets,
      ...residualEstimate(point),
    }));
}

const percent = (fraction: number) => fraction * 100;

/** residualTable is the curve as drawn, a row per k: residual loss with its 95 % interval, the channel's loss, sources counted. */
export function residualTable(points: ResidualPoint[]): ChartTable<DrawnPoint> {
  return {
    columns: [
      { header: columnHeader('k, source packets per repair'), value: (point) => point.k },
      { header: 'Residual loss (%)', value: (point) => percent(point.residualLoss) },
      { header: 'Residual loss, 95 % interval low (%)', value: (point) => percent(point.lower) },
      { header: 'Residual loss, 95 % interval high (%)', value: (point) => percent(point.upper) },
      { header: 'Channel loss (%)', value: (point) => percent(point.channelLoss) },
      { header: 'Sources counted (packets)', value: (point) => point.sources },
    ],
    rows: drawnPoints(points),
  };
}

/** burstTable is the histogram as drawn: a row per burst length. */
export function burstTable(bins: BurstBin[]): ChartTable<BurstBin> {
  return {
    columns: [
      { header: 'Burst length (packets lost in a row)', value: (bin) => bin.length },
      { header: 'Bursts (count)', value: (bin) => bin.count },
    ],
    rows: bins,
  };
}

/** lossTable is the raster as drawn: a row per packet shown, its send time and whether the channel lost it. */
export function lossTable(lost: Uint8Array, packetMs: number): ChartTable<number> {
  return {
    columns: [
      { header: 'Packet (index in send order)', value: (index) => index },
      { header: 'Sent at (ms)', value: (index) => index * packetMs },
      { header: 'Lost (1 or 0)', value: (index) => lost[index] },
    ],
    rows: Array.from(lost.keys()),
  };
}

/**
 * channelSource says which channel drew a figure's losses, with every setting and its seed: the
 * same settings draw the same losses.
 */
export function channelSource(channel: ChannelConfig, packetMs: number): string {
  return `satlab channel lab: ${describeChannel(channel)}, a packet every ${packetMs} ms`;
}
