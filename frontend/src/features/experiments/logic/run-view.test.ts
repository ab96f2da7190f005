import { describe, expect, it } from 'vitest';
import type { Run, RunSamples, SampleEvent, StreamEvent } from '../api/types';
import { initialRunView, isFinished, phaseLabel, runViewReducer } from './run-view';
import { mergeSamples, rowsOfSample } from './samples';
import { flowLabels, iterationsOf, lastTime, runCharts } from './series';

// Shaped as the backend streams them (geo-ideal, 300 kB, with tunnel.k=5 tunnel.z=100).
const run: Run = {
  run_id: '0e5015',
  name: 'geo-ideal',
  status: 'running',
  error: null,
  campaign_id: null,
  item_index: null,
  created_at: 1795325004.2,
  started_at: 1795325004.3,
  finished_at: null,
  scenario: {
    name: 'geo-ideal',
    description: '',
    iterations: 1,
    tunnel: { k: 5, z: 100 },
    flows: [{ transport: 'tcp', cc: 'cubic', hystart: false, size_bytes: 300000, duration_s: null, count: 2, start_s: 0, direction: 'download' }],
  },
  provenance: {},
  result: null,
};

const link = (queueBytes: number, dropsBuffer: number, dropsChannel: number) => ({
  queue_bytes: queueBytes,
  in_flight_packets: 3,
  packets_in: 10,
  bytes_in: 5000,
  packets_out: 7,
  bytes_out: 3000,
  drops_buffer: dropsBuffer,
  drops_channel: dropsChannel,
  drops_overflow: 0,
  write_errors: 0,
  lateness_ms: null,
});

function sample(t_s: number, goodput: number | null, lost: number): SampleEvent {
  const endpoint = (rxLost: number) => ({
    t_s,
    tx: { packets_in: 6, plain: 0, sources: 6, repairs: 3 },
    rx: { plain: 0, sources: 3, repairs: 2, lost: rxLost, recovered: rxLost, unrecovered: 0 },
  });
  return {
    type: 'sample',
    run_id: '0e5015',
    iteration: 0,
    t_s,
    flows: [0, 1].map((flow) => ({
      flow,
      goodput_mbps: goodput,
      bytes_acked: 1000,
      cwnd_bytes: 15455,
      rtt_ms: 502.5,
      retransmissions: 0,
      delivery_rate_mbps: null,
    })),
    link: { ab: link(0, 0, 0), ba: link(12000, 1, lost) },
    lan: null,
    tunnel: [endpoint(lost), endpoint(0)],
  };
}

const events: StreamEvent[] = [
  { type: 'run', run },
  { type: 'state', state: 'running', run_id: '0e5015', iteration: 0 },
  sample(0.1, null, 0),
  sample(0.2, 4.5, 2),
];

const replay = (list: StreamEvent[]) => list.reduce((view, event) => runViewReducer(view, { type: 'event', event }), initialRunView);

describe('rowsOfSample', () => {
  it('splits an event into the rows the store keeps: ba is forward, the terminal receives forward', () => {
    const rows = rowsOfSample(sample(0.2, 4.5, 2));
    expect(rows.flows).toHaveLength(2);
    expect(rows.flows[1]).toMatchObject({ iteration: 0, t_s: 0.2, flow: 1, goodput_mbps: 4.5, cwnd_bytes: 15455 });
    expect(rows.links.map((row) => [row.link, row.direction, row.queue_bytes])).toEqual([
      ['satellite', 'forward', 12000],
      ['satellite', 'return', 0],
    ]);
    expect(rows.tunnel.map((row) => [row.direction, row.rx_lost, row.tx_sources])).toEqual([
      ['forward', 2, 6],
      ['return', 0, 6],
    ]);
  });

  it('has no tunnel rows without a tunnel, and no link rows before satlink reports', () => {
    const rows = rowsOfSample({ ...sample(0, null, 0), link: null, tunnel: [] });
    expect(rows.links).toEqual([]);
    expect(rows.tunnel).toEqual([]);
  });
});

describe('mergeSamples', () => {
  it('keeps each row once and in time order when stored samples arrive after live ones', () => {
    const live = rowsOfSample(sample(0.2, 4.5, 2));
    const stored: RunSamples = mergeSamples(rowsOfSample(sample(0.1, null, 0)), rowsOfSample(sample(0.2, 4.5, 2)));
    const merged = mergeSamples(live, stored);
    expect(merged.flows.map((row) => [row.t_s, row.flow])).toEqual([
      [0.1, 0],
      [0.1, 1],
      [0.2, 0],
      [0.2, 1],
    ]);
    expect(merged.links).toHaveLength(4);
    expect(merged.tunnel).toHaveLength(4);
  });
});

describe('runViewReducer', () => {
  it('follows a live run from its snapshot through its samples to its summary', () => {
    let view = replay(events);
    expect(view.phase).toBe('running');
    expect(view.stream).toBe('open');
    expect(lastTime(view.samples, 0)).toBe(0.2);

    const result = { run_id: '0e5015', status: 'done' as const, error: null, flows: [], iterations: [] };
    view = replay([...events, { type: 'state', state: 'collecting', run_id: '0e5015', iteration: 0 }, { type: 'summary', ...result }]);
    expect(view.phase).toBe('done');
    expect(view.result).toEqual(result);
    expect(view.run?.status).toBe('done');
    expect(isFinished(view.phase)).toBe(true);
    expect(runViewReducer(view, { type: 'closed', code: 1000 }).stream).toBe('ended');
  });

  it('says a stream that closes before the end is lost, and an unknown run is not found', () => {
    expect(runViewReducer(replay(events), { type: 'closed', code: 1006 }).stream).toBe('lost');
    expect(runViewReducer(initialRunView, { type: 'closed', code: 4404 }).stream).toBe('not-found');
  });

  it('keeps error events and names the phases in words', () => {
    const view = replay([...events, { type: 'error', run_id: '0e5015', message: 'satlink exited 1' }]);
    expect(view.errors).toEqual(['satlink exited 1']);
    expect(phaseLabel('building')).toBe('Building the path');
    expect(phaseLabel(null)).toBe('Connecting…');
  });
});

describe('runCharts', () => {
  const view = replay(events);
  const charts = runCharts(view.samples, 0, flowLabels(run.scenario), true);
  const chart = (id: string) => charts.find((candidate) => candidate.id === id);

  it('draws a line per flow, labelled as the CSV numbers flows, with units on the axis', () => {
    expect(charts.map((candidate) => candidate.id)).toEqual(['goodput', 'cwnd', 'rtt', 'queue', 'drops', 'fec']);
    expect(chart('goodput')?.yLabel).toBe('Goodput, Mbit/s');
    expect(chart('goodput')?.series.map((series) => series.label)).toEqual(['flow 0 (tcp cubic)', 'flow 1 (tcp cubic)']);
    expect(chart('goodput')?.series[0].points).toEqual([
      { t_s: 0.1, value: null },
      { t_s: 0.2, value: 4.5 },
    ]);
    expect(chart('cwnd')?.series[1].points[0].value).toBeCloseTo(15.455);
  });

  it('draws the forward queue in kB, drops by cause, and the FEC counters with a tunnel only', () => {
    expect(chart('queue')?.series[0].points.map((point) => point.value)).toEqual([12, 12]);
    expect(chart('drops')?.series.map((series) => series.points.at(-1)?.value)).toEqual([1, 2]);
    expect(chart('fec')?.series.map((series) => series.points.at(-1)?.value)).toEqual([2, 2]);
    expect(runCharts(view.samples, 0, [], false).map((candidate) => candidate.id)).not.toContain('fec');
  });

  it('keeps iterations apart', () => {
    const second = replay([...events, { ...sample(0.1, 9, 0), iteration: 1 }]);
    expect(iterationsOf(second.samples)).toEqual([0, 1]);
    expect(runCharts(second.samples, 1, [], false)[0].series[0].points).toEqual([{ t_s: 0.1, value: 9 }]);
    expect(lastTime(second.samples, 0)).toBe(0.2);
  });
});
