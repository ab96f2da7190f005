import { describe, expect, it } from 'vitest';
import type { FlowSampleRow, Run } from '../../../shared/runs';
import { overlayChart } from './overlay';

const flowRow = (t_s: number, flow: number, goodput: number, hop: FlowSampleRow['hop'] = 'end-to-end'): FlowSampleRow => ({
  iteration: 0,
  t_s,
  flow,
  hop,
  bytes_acked: null,
  goodput_mbps: goodput,
  cwnd_bytes: 20000,
  rtt_ms: 510,
  retransmissions: 0,
  delivery_rate_mbps: null,
});

const stored = (runId: string, cc: string, count: number, rows: FlowSampleRow[]) => ({
  run: {
    run_id: runId,
    name: 'geo-ideal',
    scenario: { flows: [{ transport: 'tcp', cc, count }] },
  } as unknown as Run,
  samples: { flows: rows, links: [], tunnel: [], pep: [] },
});

describe('overlayChart', () => {
  const cubic = stored('a1', 'cubic', 1, [flowRow(0.1, 0, 1), flowRow(0.2, 0, 5)]);
  const bbr = stored('b2', 'bbr', 2, [flowRow(0.1, 0, 2), flowRow(0.1, 1, 3)]);

  it('draws one metric of each run, each named by its run in the legend', () => {
    const chart = overlayChart([cubic, bbr], 'goodput');
    expect(chart.title).toBe('Goodput, runs overlaid');
    expect(chart.yLabel).toBe('Goodput, Mbit/s');
    expect(chart.series.map((series) => series.label)).toEqual([
      'run a1 · geo-ideal (tcp cubic)',
      'run b2 · geo-ideal, flow 0 (tcp bbr)',
      'run b2 · geo-ideal, flow 1 (tcp bbr)',
    ]);
    expect(chart.series[0].points).toEqual([
      { t_s: 0.1, value: 1 },
      { t_s: 0.2, value: 5 },
    ]);
  });

  it('draws a flow split by a PEP by the connection its client sees', () => {
    const split = stored('c3', 'cubic', 1, [flowRow(0.1, 0, 9, 'server'), flowRow(0.1, 0, 4, 'client'), flowRow(0.1, 0, 6, 'satellite')]);
    const chart = overlayChart([cubic, split], 'goodput');
    expect(chart.series.map((series) => series.points.map((point) => point.value))).toEqual([[1, 5], [4]]);
  });

  it('draws the metric asked for', () => {
    expect(overlayChart([cubic], 'rtt').series[0].points[0].value).toBe(510);
  });
});
