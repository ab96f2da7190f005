import { describe, expect, it } from 'vitest';
import type { Run, RunSamples, SampleEvent, StreamEvent } from '../api/types';
import { errorEventOf, flowGroupOf, linkSampleOf, runResultOf, scenarioOf, stateEventOf, summaryEventOf, tunnelOf, tunnelSampleOf } from '../../../test/api-fixtures';
import { initialRunView, isFinished, phaseLabel, runViewReducer } from './run-view';
import { mergeSamples } from './samples';
import { glossary } from './glossary';
import { iterationsOf, lastTime, runCharts } from './series';

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
  owner: { id: 'local', name: "this machine's user" },
  shared: false,
  origin: { kind: 'experiments', name: null, lab: 'geo-ideal' },
  scenario: scenarioOf({ tunnel: tunnelOf({ k: 5, z: 100 }), flows: [flowGroupOf({ size_bytes: 300000, count: 2 })] }),
  provenance: {},
  result: null,
  worker: null,
  attempt: 1,
  host_kept_up: null,
};

// Rows as the store keeps them and the stream sends them (backend/satlab/service/store.py, sample_rows).
const linkRow = (t_s: number, direction: 'forward' | 'return', queueBytes: number, dropsBuffer: number, dropsChannel: number, iteration = 0) =>
  linkSampleOf({
  iteration,
  t_s,
  direction,
  queue_bytes: queueBytes,
  in_flight_packets: 3,
  packets_in: 10,
  bytes_in: 5000,
  packets_out: 7,
  bytes_out: 3000,
  drops_buffer: dropsBuffer,
  drops_channel: dropsChannel,
  drops_overflow: 0,
  drops: dropsBuffer + dropsChannel,
});

function sample(t_s: number, goodput: number | null, lost: number, iteration = 0): SampleEvent {
  const tunnelRow = (direction: 'forward' | 'return', rxLost: number) =>
    tunnelSampleOf({
    iteration,
    t_s,
    direction,
    tx_sources: 6,
    tx_repairs: 3,
    rx_sources: 3,
    rx_repairs: 2,
    rx_lost: rxLost,
    rx_recovered: rxLost,
    rx_unrecovered: 0,
  });
  return {
    type: 'sample',
    run_id: '0e5015',
    campaign_id: null,
    cross_traffic: null,
    iteration,
    t_s,
    flows: [0, 1].map((flow) => ({
      iteration,
      t_s,
      flow,
      hop: 'end-to-end' as const,
      goodput_mbps: goodput,
      bytes_acked: 1000,
      cwnd_bytes: 15455,
      rtt_ms: 502.5,
      retransmissions: 0,
      delivery_rate_mbps: null,
    })),
    links: [linkRow(t_s, 'forward', 12000, 1, lost, iteration), linkRow(t_s, 'return', 0, 0, 0, iteration)],
    tunnel: [tunnelRow('forward', lost), tunnelRow('return', 0)],
    pep: [],
  };
}

const events: StreamEvent[] = [
  { type: 'run', run },
  stateEventOf({ state: 'running', run_id: '0e5015', iteration: 0 }),
  sample(0.1, null, 0),
  sample(0.2, 4.5, 2),
];

const replay = (list: StreamEvent[]) => list.reduce((view, event) => runViewReducer(view, { type: 'event', event }), initialRunView);

describe('mergeSamples', () => {
  it('keeps each row once and in time order when stored samples arrive after live ones', () => {
    const live: RunSamples = sample(0.2, 4.5, 2);
    const stored: RunSamples = mergeSamples(sample(0.1, null, 0), sample(0.2, 4.5, 2));
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

    const result = runResultOf({ run_id: '0e5015' });
    view = replay([...events, stateEventOf({ state: 'collecting', run_id: '0e5015', iteration: 0 }), summaryEventOf(result)]);
    expect(view.phase).toBe('done');
    expect(view.result).toMatchObject(result);
    expect(view.run?.status).toBe('done');
    expect(isFinished(view.phase)).toBe(true);
    expect(runViewReducer(view, { type: 'closed', code: 1000 }).stream).toBe('ended');
  });

  it('says a stream that closes before the end is lost, and an unknown run is not found', () => {
    expect(runViewReducer(replay(events), { type: 'closed', code: 1006 }).stream).toBe('lost');
    expect(runViewReducer(initialRunView, { type: 'closed', code: 4404 }).stream).toBe('not-found');
  });

  it('forgets the failures of a lost connection when it connects again, and keeps the samples', () => {
    const lost = runViewReducer(runViewReducer(replay(events), { type: 'failed', message: 'The backend at … is not answering.' }), {
      type: 'closed',
      code: 1006,
    });
    const again = runViewReducer(lost, { type: 'connecting' });
    expect(again.errors).toEqual([]);
    expect(again.stream).toBe('connecting');
    expect(again.samples).toBe(lost.samples);
  });

  it('keeps error events and names the phases in words', () => {
    const view = replay([...events, errorEventOf({ run_id: '0e5015', message: 'satlink exited 1' })]);
    expect(view.errors).toEqual(['satlink exited 1']);
    expect(phaseLabel('building')).toBe('Building the path');
    expect(phaseLabel(null)).toBe('Connecting…');
  });
});

describe('runCharts', () => {
  const view = replay(events);
  const charts = runCharts(view.samples, 0, run.scenario);
  // The same flows without the tunnel.
  const plain = scenarioOf({ flows: run.scenario.flows });
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
    expect(runCharts(view.samples, 0, plain).map((candidate) => candidate.id)).not.toContain('fec');
  });

  it('draws the drops of netem, whose causes are unknown, as one total', () => {
    const netem = sample(0.3, 4, 0);
    netem.links = netem.links.map((row) => ({ ...row, drops_buffer: null, drops_channel: null, drops_overflow: null, drops: 5 }));
    const drops = runCharts(replay([...events, netem]).samples, 0, plain).find((candidate) => candidate.id === 'drops');
    expect(drops?.series.map((series) => series.key)).toEqual(['buffer', 'channel', 'all']);
    expect(drops?.series[2].points.at(-1)?.value).toBe(5);
  });

  it('draws each hop of a flow a PEP splits as a line of its own, named by its ends, from the client’s side', () => {
    const split = sample(0.3, 4, 0);
    split.flows = (['server', 'client', 'satellite'] as const).map((hop, index) => ({ ...split.flows[0], hop, goodput_mbps: index }));
    const [goodput, cwnd] = runCharts(replay([...events, split]).samples, 0, run.scenario);
    expect(goodput.series.map((series) => [series.key, series.label])).toEqual([
      ['flow-0', 'flow 0 (tcp cubic)'],
      ['flow-0-client', 'flow 0 (tcp cubic), client–terminal'],
      ['flow-0-satellite', 'flow 0 (tcp cubic), satellite'],
      ['flow-0-server', 'flow 0 (tcp cubic), gateway–server'],
      ['flow-1', 'flow 1 (tcp cubic)'],
    ]);
    expect(goodput.series[3].points).toEqual([{ t_s: 0.3, value: 0 }]);
    // A download's data enter the PEPs from the server, at the LAN's pace: that segment alone does
    // not set the goodput axis (its bursts would flatten the satellite's); every line sets the others.
    expect(goodput.series.map((series) => series.unscaled)).toEqual([undefined, undefined, undefined, glossary.pepIntake, undefined]);
    expect(cwnd.series.every((series) => series.unscaled === undefined)).toBe(true);
    // An upload's enter from the client.
    const uploads = scenarioOf({ flows: [flowGroupOf({ direction: 'upload', count: 2 })] });
    const [uploadGoodput] = runCharts(replay([...events, split]).samples, 0, uploads);
    expect(uploadGoodput.series.filter((series) => series.unscaled).map((series) => series.key)).toEqual(['flow-0-client']);
  });

  it('keeps iterations apart', () => {
    const second = replay([...events, sample(0.1, 9, 0, 1)]);
    expect(iterationsOf(second.samples)).toEqual([0, 1]);
    expect(runCharts(second.samples, 1, plain)[0].series[0].points).toEqual([{ t_s: 0.1, value: 9 }]);
    expect(lastTime(second.samples, 0)).toBe(0.2);
  });
});
