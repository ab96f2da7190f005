import { describe, expect, it } from 'vitest';
import type { CampaignItem, FlowListRow, RunListItem } from '../../../shared/runs';
import { campaignItemOf } from '../../../test/api-fixtures';
import { campaignResults, censoredFigure, comparisonRows, configurationLabel, runFigure } from './campaign-results';

const flow = (download_time_s: number | null, patch: Partial<FlowListRow> = {}): FlowListRow => ({
  iteration: 0,
  flow: 0,
  group: 0,
  transport: 'tcp',
  cc: 'cubic',
  direction: 'download',
  start_s: 0,
  bytes: 201272,
  download_time_s,
  goodput_mbps: download_time_s === null ? null : (201272 * 8) / download_time_s / 1e6,
  retransmissions: 0,
  mean_rtt_ms: 503,
  power_mbps_per_s: 1,
  error: download_time_s === null ? 'iperf3 exited 1' : null,
  details: {},
  ...patch,
});

const run = (
  run_id: string,
  status: RunListItem['status'],
  flows: FlowListRow[],
  error: string | null = null,
  host_kept_up: boolean | null = null,
  timed_out: RunListItem['timed_out'] = null,
): RunListItem => ({
  run_id,
  name: 'geo-ideal-cc',
  status,
  error,
  campaign_id: 'c1',
  item_index: null,
  created_at: 0,
  started_at: 0,
  finished_at: 1,
  owner: null,
  shared: false,
  origin: { kind: 'campaign', name: 'geo-ideal-cc', lab: 'geo-ideal' },
  host_kept_up,
  flows,
  timed_out,
});

const cc = (value: string) => ({ 'flows.0.cc': value });

// Two configurations × three iterations, iteration-major, as the backend lays them out.
const items: CampaignItem[] = [
  campaignItemOf({ item_index: 0, configuration: 0, iteration: 0, parameters: cc('cubic'), status: 'done', run_id: 'r0' }),
  campaignItemOf({ item_index: 1, configuration: 1, iteration: 0, parameters: cc('bbr'), status: 'done', run_id: 'r1' }),
  campaignItemOf({ item_index: 2, configuration: 0, iteration: 1, parameters: cc('cubic'), status: 'done', run_id: 'r2' }),
  campaignItemOf({ item_index: 3, configuration: 1, iteration: 1, parameters: cc('bbr'), status: 'failed', run_id: 'r3' }),
  campaignItemOf({ item_index: 4, configuration: 0, iteration: 2, parameters: cc('cubic'), status: 'running', run_id: 'r4' }),
  campaignItemOf({ item_index: 5, configuration: 1, iteration: 2, parameters: cc('bbr'), status: 'done', run_id: 'r5' }),
];
const runs = [
  run('r0', 'done', [flow(2.8)]),
  run('r1', 'done', [flow(3.1, { cc: 'bbr' })]),
  run('r2', 'done', [flow(3.0)], null, false),
  run('r3', 'failed', [], 'iperf3 did not connect within 20 s.'),
  run('r4', 'running', []),
  run('r5', 'done', [flow(null, { cc: 'bbr' })]),
];

describe('campaignResults', () => {
  it('groups finished runs by configuration, one point per run, in matrix order, each saying whether the host kept up', () => {
    const { configurations } = campaignResults(items, runs, 'download_time_s');
    expect(configurations.map((one) => [one.index, one.label, one.shortLabel])).toEqual([
      [0, 'flows.0.cc=cubic', 'cubic'],
      [1, 'flows.0.cc=bbr', 'bbr'],
    ]);
    expect(configurations[0].points).toEqual([
      { runId: 'r0', iteration: 0, value: 2.8, hostLate: false, censored: false },
      { runId: 'r2', iteration: 1, value: 3.0, hostLate: true, censored: false },
    ]);
    expect(configurations[0].stats).toMatchObject({ n: 2, median: 2.9, mean: 2.9 });
    expect(configurations[1].stats).toMatchObject({ n: 1, median: 3.1 });
  });

  it('counts and lists the runs that failed or gave no figure, with why; running ones are not results yet', () => {
    const { failed } = campaignResults(items, runs, 'download_time_s');
    expect(failed.map(({ item, configurationLabel: label, reason }) => [item.run_id, label, reason])).toEqual([
      ['r3', 'flows.0.cc=bbr', 'iperf3 did not connect within 20 s.'],
      ['r5', 'flows.0.cc=bbr', 'the run finished without a download time: iperf3 exited 1'],
    ]);
  });

  it('says why an item failed without a run', () => {
    const unstarted: CampaignItem = { ...items[0], status: 'failed', run_id: null };
    expect(campaignResults([unstarted], [], 'goodput_mbps').failed[0].reason).toBe(
      'the run did not start: this host could not run its scenario',
    );
  });

  it('waits for a run the list does not have yet', () => {
    expect(campaignResults(items.slice(0, 1), [], 'download_time_s')).toMatchObject({ failed: [], configurations: [{ points: [] }] });
  });
});

describe('a run its time limit stopped', () => {
  const atLimit = (bound: number | null, finished = false) => ({
    flow: 0,
    direction: 'download',
    finished,
    download_time_at_least_s: bound,
    bytes_acked: 12_070_528,
  });
  const stopped = (runId: string, bound: number) =>
    run(runId, 'failed', [], 'the flows did not finish within 1458 s', true, { iteration: 0, limit_s: 1458, flows: [atLimit(bound)] });
  const slow = [0, 1, 2].map((iteration) =>
    campaignItemOf({ item_index: 10 + iteration, configuration: 2, iteration, parameters: cc('reno'), status: iteration < 2 ? 'failed' : 'done', run_id: `s${iteration}` }),
  );
  const slowRuns = [stopped('s0', 1457.5), stopped('s1', 1456.0), run('s2', 'done', [flow(900)])];

  it('is a censored point at the least its download time can be, and still a failed run', () => {
    const { configurations, failed } = campaignResults([...items, ...slow], [...runs, ...slowRuns], 'download_time_s');
    const reno = configurations[2];
    expect(reno.points.map((point) => [point.value, point.censored])).toEqual([
      [1457.5, true],
      [1456.0, true],
      [900, false],
    ]);
    // Two of three at their bound: the median is one of them, a longer time raises it; so the mean.
    expect([reno.stats?.median, reno.atLeast]).toEqual([1456.0, { median: true, mean: true }]);
    expect(failed.find((one) => one.item.run_id === 's0')?.reason).toBe(
      'the flows did not finish within 1458 s; its download time counts as at least 1457.5 s',
    );
    // Its change against cubic is at least what the bound gives; cubic's against it at most.
    const rows = comparisonRows(configurations, 0);
    expect([rows[2].changeBound, rows[2].changePercent]).toEqual(['at least', expect.closeTo(((1456 - 2.9) / 2.9) * 100, 6)]);
    expect(comparisonRows(configurations, 2)[0].changeBound).toBe('at most');
    // Only a download time is censored; one exact run among them leaves the median alone.
    expect(campaignResults([...items, ...slow], [...runs, ...slowRuns], 'goodput_mbps').configurations[2].points).toHaveLength(1);
  });

  it('bounds nothing where a flow of the stopped iteration had finished or not started', () => {
    const finished = run('f', 'failed', [], null, null, { iteration: 0, limit_s: 1458, flows: [atLimit(1457.5), { ...atLimit(null, true), flow: 1 }] });
    const unstarted = run('u', 'failed', [], null, null, { iteration: 0, limit_s: 1458, flows: [atLimit(null)] });
    expect([censoredFigure(finished, 'download_time_s'), censoredFigure(unstarted, 'download_time_s')]).toEqual([null, null]);
    // An earlier iteration's finished flows count beside the stopped one's bound.
    const later = run('l', 'failed', [flow(100)], null, null, { iteration: 1, limit_s: 1458, flows: [atLimit(1400)] });
    expect(censoredFigure(later, 'download_time_s')).toBe(750);
  });
});

describe('runFigure', () => {
  it('gives a lone flow its figure and several flows their mean', () => {
    expect(runFigure([flow(3)], 'download_time_s')).toBe(3);
    expect(runFigure([flow(3), flow(5, { flow: 1 }), flow(null, { flow: 2 })], 'download_time_s')).toBe(4);
    expect(runFigure([flow(3, { retransmissions: null })], 'retransmissions')).toBeNull();
  });
});

describe('configurationLabel', () => {
  it('names each parameter with its value, objects as compact JSON', () => {
    expect(configurationLabel({ 'flows.0.cc': 'bbr', tunnel: { k: 5, z: 100 } })).toBe('flows.0.cc=bbr, tunnel={"k":5,"z":100}');
    expect(configurationLabel({})).toBe('the base scenario');
  });
});

describe('comparisonRows', () => {
  const { configurations } = campaignResults(items.slice(0, 3), runs, 'download_time_s');

  it('gives the change of each median against the baseline in %', () => {
    const rows = comparisonRows(configurations, 0);
    expect(rows.map((row) => row.isBaseline)).toEqual([true, false]);
    expect(rows[0].changePercent).toBeNull();
    // bbr 3.1 s against cubic's median 2.9 s.
    expect(rows[1].changePercent).toBeCloseTo(6.897, 3);
    expect(comparisonRows(configurations, 1)[0].changePercent).toBeCloseTo(-6.452, 3);
  });

  it('has no change against a baseline without runs', () => {
    const empty = { ...configurations[1], points: [], stats: null };
    expect(comparisonRows([configurations[0], empty], 1)[0].changePercent).toBeNull();
  });
});
