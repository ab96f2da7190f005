import { describe, expect, it } from 'vitest';
import { channelProblems, defaultChannelParams, parseTrace, toChannelConfig } from './channel-params';
import { channelPresets } from './channel-presets';

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
});

describe('channelProblems', () => {
  const base = defaultChannelParams;

  it('accepts every preset', () => {
    for (const preset of channelPresets) expect(channelProblems({ ...base, ...preset.params })).toEqual({});
  });

  it('refuses what the codec refuses, beside the field, in a sentence', () => {
    expect(channelProblems({ ...base, kind: 'bernoulli', loss: 1.5, seed: -1 })).toEqual({
      loss: ['The loss probability must be a probability from 0 to 1.'],
      seed: ['The seed must be a whole number from 0 to 4294967295.'],
    });
    expect(channelProblems({ ...base, kind: 'outage', periodMs: 258, durationMs: 300 })).toEqual({
      durationMs: ['The outage duration must be a time from 0 to the period (258 ms).'],
    });
    expect(channelProblems({ ...base, kind: 'outage', periodMs: 258, durationMs: 15.5, jitterMs: 250 })).toEqual({
      jitterMs: ['The jitter must be a time from 0 to the period minus the duration (242.5 ms).'],
    });
    expect(channelProblems({ ...base, kind: 'ge_time', stepMs: 0 }).stepMs).toEqual(['The step must be a time of at least 0.001 ms.']);
    expect(channelProblems({ ...base, kind: 'trace', trace: '10-20,15-30' }).trace?.[0]).toMatch(/^The loss interval 15-30 must end after it starts and start after the one before it ends/);
    expect(channelProblems({ ...base, kind: 'trace', trace: '10-20', tracePeriodMs: 15 }).tracePeriodMs).toEqual([
      "The trace period must be 0 (play the trace once) or at least the last interval's end (20 ms).",
    ]);
  });

  it('checks only the fields of the chosen model', () => {
    expect(channelProblems({ ...base, kind: 'perfect', loss: 7, periodMs: -1 })).toEqual({});
  });
});
