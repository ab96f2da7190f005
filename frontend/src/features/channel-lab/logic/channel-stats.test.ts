import { describe, expect, it } from 'vitest';
import { type ChannelStats, burstBinLabels, nativeChannelSpec, nativeCommand, streamPackets } from './channel-stats';

describe('nativeChannelSpec', () => {
  it('writes each model as satlink --channel does, seed included', () => {
    expect(nativeChannelSpec({ kind: 'perfect' })).toBe('perfect');
    expect(nativeChannelSpec({ kind: 'bernoulli', seed: 7, loss: 0.05 })).toBe('bernoulli:loss=0.05,seed=7');
    expect(nativeChannelSpec({ kind: 'ge_packet', seed: 2, p: 0.01, q: 0.25, lossGood: 0, lossBad: 1 })).toBe(
      'ge-packet:p=0.01,q=0.25,loss_good=0,loss_bad=1,seed=2',
    );
    expect(nativeChannelSpec({ kind: 'outage', seed: 1, periodMs: 258, durationMs: 15.2 })).toBe(
      'outage:period_ms=258,duration_ms=15.2,phase_ms=0,jitter_ms=0,seed=1',
    );
    expect(nativeChannelSpec({ kind: 'trace', intervals: [{ startMs: 1, endMs: 2 }] })).toBeUndefined();
  });

  it('keeps every digit of a derived probability, so the tool reads the same double', () => {
    const q = 10 / 16.7;
    const p = (q * 0.0256) / (1 - 0.0256);
    const spec = nativeChannelSpec({ kind: 'ge_time', seed: 1, p, q, stepMs: 10 }) ?? '';
    const [pText, qText] = spec.replace('ge-time:', '').split(',').map((field) => field.split('=')[1]);
    expect(Number(pText)).toBe(p);
    expect(Number(qText)).toBe(q);
  });
});

describe('the stream', () => {
  it('counts its packets and names its command', () => {
    const stream = { durationS: 60, rateMbps: 10, packetBytes: 1250 };
    expect(streamPackets(stream)).toBe(60000);
    expect(nativeCommand({ kind: 'bernoulli', seed: 7, loss: 0.01 }, stream)).toBe(
      'swf-channel stats --channel bernoulli:loss=0.01,seed=7 --duration-s 60 --rate-mbps 10 --packet-bytes 1250',
    );
  });
});

describe('burstBinLabels', () => {
  const histogram = Array.from({ length: 16 }, () => 0);
  it('labels bins of 5 ms, the last open', () => {
    const labels = burstBinLabels({ burstUnit: 'ms', burstBinWidth: 5, burstHistogram: histogram } as ChannelStats);
    expect([labels[0], labels[2], labels[15]]).toEqual(['[0, 5) ms', '[10, 15) ms', '≥ 75 ms']);
  });
  it('labels bins of one packet from 1, the last open', () => {
    const labels = burstBinLabels({ burstUnit: 'packets', burstBinWidth: 1, burstHistogram: histogram } as ChannelStats);
    expect([labels[0], labels[1], labels[15]]).toEqual(['1 packet', '2 packets', '≥ 16 packets']);
  });
});
