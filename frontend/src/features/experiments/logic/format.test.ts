import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../../../shared/runs';
import { flowResultOf } from '../../../test/api-fixtures';
import { describeCampaign, describeFlows, describeOrigin, flowFigure, formatBytes, formatChange, formatCount, NOT_RECORDED } from './format';

const flow = (download_time_s: number | null, goodput_mbps: number | null): FlowSummary =>
  flowResultOf({
  iteration: 0,
  flow: 0,
  group: 0,
  transport: 'tcp',
  cc: 'cubic',
  direction: 'download',
  start_s: 0,
  bytes: 300000,
  download_time_s,
  goodput_mbps,
  retransmissions: 0,
  mean_rtt_ms: 504,
  power_mbps_per_s: 1.5,
  error: download_time_s === null ? 'iperf3 exited 1' : null,
});

describe('flowFigure', () => {
  it('gives a lone flow its value and several flows their mean, leaving failed flows out', () => {
    expect(flowFigure([flow(3.177, 0.76)], 'download_time_s', 2)).toBe('3.18');
    expect(flowFigure([flow(3, 1), flow(5, 2), flow(null, null)], 'download_time_s', 1)).toBe('4.0 (mean of 2)');
    expect(flowFigure([flow(null, null)], 'goodput_mbps', 2)).toBe('–');
    expect(flowFigure([], 'goodput_mbps', 2)).toBe('–');
  });
});

describe('formatting', () => {
  it('prints sizes, changes and counts with their units', () => {
    expect(formatBytes(20971520)).toBe('20,971,520 bytes = 20.00 MiB');
    expect(formatChange(10.94)).toBe('+10.9');
    expect(formatChange(-3.21)).toBe('-3.2');
    expect(formatChange(0)).toBe('0.0');
    expect(formatChange(null)).toBe('–');
    expect(formatCount(1, 'run')).toBe('1 run');
    expect(formatCount(1200, 'run')).toBe('1,200 runs');
  });
});

describe('describing runs of the list', () => {
  it('counts finished flows by transport and congestion control, once per run', () => {
    const flows = [flow(3, 1), { ...flow(3, 1), flow: 1 }, { ...flow(3, 1), flow: 2, cc: 'bbr' }, { ...flow(3, 1), iteration: 1 }];
    expect(describeFlows(flows)).toBe('2 × tcp cubic, tcp bbr');
    expect(describeFlows([])).toBe('–');
  });
});

describe('describeCampaign', () => {
  it('says what the campaign runs, values as the backend prints them', () => {
    expect(
      describeCampaign({
        name: 'cc-vs-fec',
        description: '',
        scenario: 'geo-optical',
        set: { 'flows.0.size_bytes': 2000000, 'flows.0.hystart': null },
        matrix: { 'flows.0.cc': ['cubic', 'bbr'], tunnel: [null, { k: 5, z: 100 }] },
        iterations: 3,
        parallel: 1,
        seed: 7,
      }),
    ).toBe(
      'geo-optical · set flows.0.size_bytes=2000000, flows.0.hystart=null · matrix flows.0.cc: cubic, bbr × tunnel: null, {"k":5,"z":100} · 3 iterations, 1 at once, seed 7',
    );
    expect(describeCampaign({ name: 'x', description: '', scenario: { name: 'inline' }, set: {}, matrix: {}, iterations: 1, parallel: 1, seed: 1 })).toBe(
      'an inline scenario · 1 iteration, 1 at once, seed 1',
    );
  });
});

describe('describeOrigin', () => {
  it('says where a run came from and the preset it ran, and that a run of before does not say', () => {
    expect(describeOrigin({ kind: 'experiments', name: null, lab: 'geo-ideal' })).toBe('Experiments: geo-ideal');
    expect(describeOrigin({ kind: 'sheet', name: 'fairness', lab: 'geo-ideal' })).toBe('Lab sheet fairness: geo-ideal');
    expect(describeOrigin({ kind: 'campaign', name: 'cc-vs-fec', lab: 'geo-optical' })).toBe('Campaign cc-vs-fec: geo-optical');
    expect(describeOrigin({ kind: 'study', name: 'petrou2022', lab: null })).toBe('Study petrou2022');
    expect(describeOrigin({ kind: 'command-line', name: null, lab: 'geo-dvb-train' })).toBe('Command line: geo-dvb-train');
    expect(describeOrigin({ kind: 'api', name: null, lab: null })).toBe('API');
    expect(describeOrigin(null)).toBe(NOT_RECORDED);
  });
});
