import { describe, expect, it } from 'vitest';
import type { FlowSampleRow, PepSampleRow, RunSamples } from '../api/types';
import { clientView } from './hops';
import { lastPepTime, pepCharts } from './pep-series';

// Rows as the store keeps them (backend/satlab/service/store/samples.py, PepSampleRow): a download through distributed PEPs.
const distributed = (t_s: number, flow: number, relayed: number, iteration = 0): PepSampleRow => ({
  iteration,
  t_s,
  flow,
  client_bytes: relayed,
  client_retransmissions: 0,
  satellite_bytes: relayed + 100_000,
  satellite_retransmissions: 2,
  server_bytes: relayed + 400_000,
  server_retransmissions: 0,
  terminal_buffer_bytes: 3_000,
  terminal_pipe_bytes: 0,
  gateway_buffer_bytes: 300_000,
  gateway_pipe_bytes: 65_536,
});

// Through a gateway PEP alone: no client segment, no terminal PEP.
const gatewayAlone = (t_s: number): PepSampleRow => ({
  ...distributed(t_s, 0, 500_000),
  client_bytes: null,
  client_retransmissions: null,
  terminal_buffer_bytes: null,
  terminal_pipe_bytes: null,
});

const samplesOf = (pep: PepSampleRow[]): RunSamples => ({ flows: [], links: [], tunnel: [], pep });
const labels = ['flow 0 (tcp cubic)', 'flow 1 (tcp bbr)'];

describe('pepCharts', () => {
  it('draws the bytes of each segment in MB, from the client’s side, and each PEP’s buffer in kB', () => {
    const [bytes, buffers] = pepCharts(samplesOf([distributed(0.1, 0, 0), distributed(0.2, 0, 1_000_000)]), 0, labels);
    expect([bytes.id, bytes.yLabel, buffers.id, buffers.yLabel]).toEqual(['pep-bytes', 'Acknowledged, MB', 'pep-buffers', 'Held, kB']);
    expect(bytes.series.map((series) => series.label)).toEqual(['client–terminal', 'satellite', 'gateway–server']);
    expect(bytes.series.map((series) => series.points)).toEqual([
      [
        { t_s: 0.1, value: 0 },
        { t_s: 0.2, value: 1 },
      ],
      [
        { t_s: 0.1, value: 0.1 },
        { t_s: 0.2, value: 1.1 },
      ],
      [
        { t_s: 0.1, value: 0.4 },
        { t_s: 0.2, value: 1.4 },
      ],
    ]);
    expect(buffers.series.map((series) => [series.label, series.points[0].value])).toEqual([
      ['terminal PEP', 3],
      ['gateway PEP', 300],
    ]);
  });

  it('names each flow’s lines when the PEPs split several, and keeps iterations apart', () => {
    const samples = samplesOf([distributed(0.1, 0, 10), distributed(0.1, 1, 20), distributed(0.1, 0, 30, 1)]);
    const [bytes] = pepCharts(samples, 0, labels);
    expect(bytes.series.map((series) => series.label)).toEqual([
      'flow 0 (tcp cubic), client–terminal',
      'flow 0 (tcp cubic), satellite',
      'flow 0 (tcp cubic), gateway–server',
      'flow 1 (tcp bbr), client–terminal',
      'flow 1 (tcp bbr), satellite',
      'flow 1 (tcp bbr), gateway–server',
    ]);
    expect(pepCharts(samples, 1, labels)[0].series[0].points).toEqual([{ t_s: 0.1, value: 0.00003 }]);
  });

  it('draws no line of a segment or a PEP a gateway PEP alone does not have', () => {
    const [bytes, buffers] = pepCharts(samplesOf([gatewayAlone(0.1), gatewayAlone(0.2)]), 0, labels);
    expect(bytes.series.map((series) => series.label)).toEqual(['satellite', 'gateway–server']);
    expect(buffers.series.map((series) => series.label)).toEqual(['gateway PEP']);
  });

  it('draws nothing for an iteration whose flows no PEP split, and ends the time axis at the PEPs’ last counters', () => {
    expect(pepCharts(samplesOf([]), 0, labels)).toEqual([]);
    expect(pepCharts(samplesOf([distributed(0.1, 0, 0, 1)]), 0, labels)).toEqual([]);
    expect(lastPepTime(samplesOf([distributed(0.1, 0, 0), distributed(7.5, 0, 9), distributed(9, 0, 9, 1)]), 0)).toBe(7.5);
    expect(lastPepTime(samplesOf([]), 0)).toBeNull();
  });
});

const flowRow = (flow: number, hop: FlowSampleRow['hop'], iteration = 0): FlowSampleRow => ({
  iteration,
  t_s: 0.1,
  flow,
  hop,
  bytes_acked: 1000,
  goodput_mbps: 1,
  cwnd_bytes: 14480,
  rtt_ms: 510,
  retransmissions: 0,
  delivery_rate_mbps: null,
});

describe('clientView', () => {
  it('keeps of each flow the connection its client sees: the first hop from the client’s side', () => {
    const rows = [flowRow(0, 'server'), flowRow(0, 'client'), flowRow(0, 'satellite'), flowRow(1, 'end-to-end'), flowRow(2, 'server'), flowRow(2, 'satellite')];
    expect(clientView(rows).map((row) => [row.flow, row.hop])).toEqual([
      [0, 'client'],
      [1, 'end-to-end'],
      [2, 'satellite'],
    ]);
  });
});
