import type { FlowGroup, FlowSampleRow, LinkSampleRow, RunSamples, Scenario, TunnelSampleRow } from '../api/types';
import { glossary } from './glossary';
import { byPathOrder, type Hop, hopNames, intakeHop } from './hops';

/**
 * The console's charts as data: which rows of a run's samples each line takes, and what value it
 * plots, with units in each chart's axis title. Everything here is pure; the charts only draw.
 */

export interface Point {
  /** Seconds since the first data packet of the iteration's flows (the backend's clock). */
  t_s: number;
  /** null leaves a gap (a sample without this figure). */
  value: number | null;
}

export interface Series {
  key: string;
  label: string;
  points: Point[];
  /** Why the line does not set its chart's y axis (LineSeries.unscaled); undefined: it does. */
  unscaled?: string;
}

interface Timed {
  iteration: number;
  t_s: number;
}

interface SeriesSpec<Row> {
  key: string;
  label: string;
  includes: (row: Row) => boolean;
  value: (row: Row) => number | null;
  unscaled?: string;
}

/** seriesOf makes one line per spec out of the rows of one iteration. */
export function seriesOf<Row extends Timed>(rows: Row[], iteration: number, specs: SeriesSpec<Row>[]): Series[] {
  return specs.map(({ key, label, includes, value, unscaled }) => ({
    key,
    label,
    points: rows.filter((row) => row.iteration === iteration && includes(row)).map((row) => ({ t_s: row.t_s, value: value(row) })),
    unscaled,
  }));
}

/** flowLabels names each flow of a scenario by its index (as the CSV exports do) and what it runs. */
export function flowLabels(scenario: Scenario): string[] {
  return flowGroups(scenario).map((group, index) => `flow ${index} (${group.transport} ${group.cc})`);
}

/** flowGroups gives each flow of a scenario its group, by the flow's index. */
function flowGroups(scenario: Scenario): FlowGroup[] {
  return scenario.flows.flatMap((group) => Array.from({ length: group.count }, () => group));
}

const sum = (...values: (number | null)[]) =>
  values.every((value) => value === null) ? null : values.reduce<number>((total, value) => total + (value ?? 0), 0);

const causesUnknown = (row: LinkSampleRow) => row.drops !== null && row.drops_buffer === null && row.drops_channel === null;

const kilobytes = (bytes: number | null) => (bytes === null ? null : bytes / 1000);

export interface ChartSpec {
  id: string;
  title: string;
  /** The y axis title, with its unit. */
  yLabel: string;
  /** The unit of a value, for legends. */
  unit: string;
  /** What the chart shows, for its "?". */
  help: string;
  /** The y axis reaches at least this far (in the unit), so that the first samples near 0 do not fill the chart. */
  yMinimumTop: number;
  series: Series[];
}

/** The per-flow metrics, each a chart of the run and a choice when runs are overlaid. */
export const flowMetrics: (Omit<ChartSpec, 'series'> & { value: (row: FlowSampleRow) => number | null })[] = [
  {
    id: 'goodput',
    title: 'Goodput per flow',
    yLabel: 'Goodput, Mbit/s',
    unit: 'Mbit/s',
    help: glossary.goodput,
    yMinimumTop: 1,
    value: (row) => row.goodput_mbps,
  },
  {
    id: 'cwnd',
    title: 'Congestion window per flow',
    yLabel: 'cwnd, kB',
    unit: 'kB',
    help: glossary.cwnd,
    yMinimumTop: 10,
    value: (row) => kilobytes(row.cwnd_bytes),
  },
  { id: 'rtt', title: 'Round-trip time per flow', yLabel: 'RTT, ms', unit: 'ms', help: glossary.rtt, yMinimumTop: 100, value: (row) => row.rtt_ms },
];

const satellite = (direction: LinkSampleRow['direction']) => (row: LinkSampleRow) => row.link === 'satellite' && row.direction === direction;

/**
 * flowHops lists the (flow, hop) pairs of an iteration's flow samples, flows in order and each one's
 * hops from the client's side: a line each, as a flow split by a PEP has a connection per hop.
 */
function flowHops(rows: FlowSampleRow[], iteration: number): { flow: number; hop: Hop }[] {
  const pairs = new Map<string, { flow: number; hop: Hop }>();
  for (const row of rows) if (row.iteration === iteration) pairs.set(`${row.flow}/${row.hop}`, { flow: row.flow, hop: row.hop });
  return [...pairs.values()].sort((a, b) => a.flow - b.flow || byPathOrder(a.hop, b.hop));
}

/**
 * runCharts lays out the charts of one iteration of a run of scenario: per flow (per hop of a flow a
 * PEP splits) goodput, cwnd and RTT; the satellite link's queues and its forward drops (buffer:
 * congestion; channel: link errors); and, with a tunnel, the FEC counters of the forward direction.
 */
export function runCharts(samples: RunSamples, iteration: number, scenario: Scenario): ChartSpec[] {
  const labels = flowLabels(scenario);
  const intakes = flowGroups(scenario).map(intakeHop);
  const lines = flowHops(samples.flows, iteration).map(({ flow, hop }) => {
    // A reference run shipped before hops were recorded has none: its flows are one line each.
    const split = hop in hopNames && hop !== 'end-to-end';
    return {
      key: split ? `flow-${flow}-${hop}` : `flow-${flow}`,
      label: `${labels[flow] ?? `flow ${flow}`}${split ? `, ${hopNames[hop]}` : ''}`,
      includes: (row: FlowSampleRow) => row.flow === flow && row.hop === hop,
      intake: hop === intakes[flow],
    };
  });
  const charts: ChartSpec[] = flowMetrics.map(({ value, ...metric }) => ({
    ...metric,
    series: seriesOf(
      samples.flows,
      iteration,
      lines.map(({ intake, ...line }) => ({
        ...line,
        value,
        // The PEPs' intake bursts at the LAN's pace, well above the satellite's rate: it would
        // flatten the flow's bottleneck, the satellite segment, to the bottom of the axis.
        unscaled: metric.id === 'goodput' && intake ? glossary.pepIntake : undefined,
      })),
    ),
  }));
  charts.push(
    {
      id: 'queue',
      title: 'Satellite link queues',
      yLabel: 'Queue, kB',
      unit: 'kB',
      help: glossary.queue,
      yMinimumTop: 10,
      series: seriesOf<LinkSampleRow>(samples.links, iteration, [
        { key: 'forward', label: 'forward (gateway → terminal)', includes: satellite('forward'), value: (row) => kilobytes(row.queue_bytes) },
        { key: 'return', label: 'return (terminal → gateway)', includes: satellite('return'), value: (row) => kilobytes(row.queue_bytes) },
      ]),
    },
    {
      id: 'drops',
      title: 'Forward link drops, cumulative',
      yLabel: 'Drops, packets',
      unit: 'packets',
      help: glossary.drops,
      yMinimumTop: 10,
      series: seriesOf<LinkSampleRow>(samples.links, iteration, [
        {
          key: 'buffer',
          label: 'buffer full (congestion)',
          includes: satellite('forward'),
          value: (row) => sum(row.drops_buffer, row.drops_overflow),
        },
        { key: 'channel', label: 'channel (link errors)', includes: satellite('forward'), value: (row) => row.drops_channel },
        // netem counts its drops together: their total, when no cause is known.
        ...(samples.links.some(causesUnknown)
          ? [{ key: 'all', label: 'all (netem: causes unknown)', includes: satellite('forward'), value: (row: LinkSampleRow) => row.drops }]
          : []),
      ]),
    },
  );
  if (scenario.tunnel) {
    const forward = (row: TunnelSampleRow) => row.direction === 'forward';
    charts.push({
      id: 'fec',
      title: 'FEC tunnel, forward direction, cumulative',
      yLabel: 'Source packets',
      unit: 'packets',
      help: glossary.fecCounters,
      yMinimumTop: 10,
      series: seriesOf<TunnelSampleRow>(samples.tunnel, iteration, [
        { key: 'lost', label: 'lost on the link', includes: forward, value: (row) => row.rx_lost },
        { key: 'recovered', label: 'rebuilt by FEC', includes: forward, value: (row) => row.rx_recovered },
      ]),
    });
  }
  return charts;
}

/** lastTime is the latest sample time of an iteration, in seconds, or null before any sample. */
export function lastTime(samples: RunSamples, iteration: number): number | null {
  let latest: number | null = null;
  for (const rows of [samples.flows, samples.links, samples.tunnel] as Timed[][]) {
    for (let index = rows.length - 1; index >= 0; index -= 1) {
      if (rows[index].iteration === iteration) {
        latest = Math.max(latest ?? 0, rows[index].t_s);
        break;
      }
    }
  }
  return latest;
}

/** iterationsOf lists the iterations that have samples, in order. */
export function iterationsOf(samples: RunSamples): number[] {
  return [...new Set([...samples.flows, ...samples.links, ...samples.tunnel].map((row) => row.iteration))].sort((a, b) => a - b);
}
