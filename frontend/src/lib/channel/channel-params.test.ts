import { describe, expect, it } from 'vitest';
import { channelPresets, defaultChannelParams, parseTrace, toChannelConfig } from './channel-params';

describe('parseTrace', () => {
  it('reads intervals in ms, with spaces and decimals', () => {
    expect(parseTrace(' 10-25, 100 - 112.5 ,')).toEqual([
      { startMs: 10, endMs: 25 },
      { startMs: 100, endMs: 112.5 },
    ]);
  });

  it('names the interval it cannot read', () => {
    expect(() => parseTrace('10-25,oops')).toThrow('The trace interval "oops" is not of the form start-end in ms');
  });
});

describe('toChannelConfig', () => {
  it('passes each model only its own parameters', () => {
    const params = { ...defaultChannelParams, seed: 9 };
    expect(toChannelConfig({ ...params, kind: 'perfect' })).toEqual({ kind: 'perfect' });
    expect(toChannelConfig({ ...params, kind: 'bernoulli', loss: 0.2 })).toEqual({ kind: 'bernoulli', seed: 9, loss: 0.2 });
    expect(toChannelConfig({ ...params, kind: 'trace', trace: '1-3', tracePeriodMs: 50 })).toEqual({
      kind: 'trace',
      intervals: [{ startMs: 1, endMs: 3 }],
      tracePeriodMs: 50,
    });
  });

  it('gives the studies their channels', () => {
    const byId = (id: string) => toChannelConfig({ ...defaultChannelParams, ...channelPresets.find((preset) => preset.id === id)?.params });
    expect(byId('optical')).toMatchObject({ kind: 'ge_time', p: 0.01, q: 0.167, stepMs: 10 });
    expect(byId('dvb-train')).toMatchObject({ kind: 'outage', periodMs: 258, durationMs: 15.5 });
    expect(byId('wifi')).toMatchObject({ kind: 'bernoulli', loss: 0.01 });
  });
});
