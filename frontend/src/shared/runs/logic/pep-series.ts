import type { PepSampleRow, RunSamples } from '../api/types';
import { glossary } from './glossary';
import { hopNames, pepSegments } from './hops';
import { type ChartSpec, type Series, seriesOf } from './series';

/**
 * The split-TCP PEP's charts as data: per flow it splits, the bytes each segment's sender got
 * acknowledged, cumulative, and the bytes each PEP holds of the data's direction. Pure, like the
 * run's other charts (series.ts).
 */

const pepRoles = ['terminal', 'gateway'] as const;

const megabytes = (bytes: number | null) => (bytes === null ? null : bytes / 1e6);
const kilobytes = (bytes: number | null) => (bytes === null ? null : bytes / 1000);

/**
 * linesOf makes a line per flow and part (a segment, a PEP), named by the part, and by the flow too
 * when the PEPs split several; only where the PEPs have that figure: a gateway PEP alone has no
 * client segment and no terminal PEP.
 */
function linesOf<Part extends string>(
  rows: PepSampleRow[],
  iteration: number,
  labels: string[],
  parts: readonly Part[],
  name: (part: Part) => string,
  value: (part: Part) => (row: PepSampleRow) => number | null,
): Series[] {
  const flows = [...new Set(rows.map((row) => row.flow))].sort((a, b) => a - b);
  const specs = flows.flatMap((flow) =>
    parts.map((part) => ({
      key: `flow-${flow}-${part}`,
      label: flows.length > 1 ? `${labels[flow] ?? `flow ${flow}`}, ${name(part)}` : name(part),
      includes: (row: PepSampleRow) => row.flow === flow,
      value: value(part),
    })),
  );
  return seriesOf(rows, iteration, specs).filter((line) => line.points.some((point) => point.value !== null));
}

/**
 * pepCharts lays out the PEP's charts of one iteration, a line per flow it split and per segment
 * (bytes) or PEP (buffer occupancy); none for an iteration without PEP samples.
 */
export function pepCharts(samples: RunSamples, iteration: number, labels: string[]): ChartSpec[] {
  const rows = samples.pep.filter((row) => row.iteration === iteration);
  if (rows.length === 0) return [];
  return [
    {
      id: 'pep-bytes',
      title: 'Bytes per PEP segment, cumulative',
      yLabel: 'Acknowledged, MB',
      unit: 'MB',
      help: glossary.pepSegmentBytes,
      yMinimumTop: 0.1,
      series: linesOf(rows, iteration, labels, pepSegments, (segment) => hopNames[segment],
        (segment) => (row) => megabytes(row[`${segment}_bytes` as const])),
    },
    {
      id: 'pep-buffers',
      title: 'PEP buffer occupancy',
      yLabel: 'Held, kB',
      unit: 'kB',
      help: glossary.pepBuffer,
      yMinimumTop: 10,
      series: linesOf(rows, iteration, labels, pepRoles, (role) => `${role} PEP`,
        (role) => (row) => kilobytes(row[`${role}_buffer_bytes` as const])),
    },
  ];
}

/** lastPepTime is the latest PEP sample time of an iteration, in seconds (the PEPs' last counters may come after the flows' samples), or null. */
export function lastPepTime(samples: RunSamples, iteration: number): number | null {
  const times = samples.pep.filter((row) => row.iteration === iteration).map((row) => row.t_s);
  return times.length > 0 ? Math.max(...times) : null;
}
