import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultChannelParams, toChannelConfig } from './channel-params';
import { channelPresets } from './channel-presets';

const byId = (id: string) => {
  const preset = channelPresets.find((candidate) => candidate.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  return { preset, config: toChannelConfig({ ...defaultChannelParams, ...preset.params }) };
};

describe('channelPresets', () => {
  it('gives the studies their channels as labs/channels.json defines them, the backend\'s labs too', () => {
    // The calibrated optical channel: the p and q the backend derives from 2.56 % and 16.7 ms.
    expect(byId('optical').config).toEqual({ kind: 'ge_time', seed: defaultChannelParams.seed, p: 0.01573208263276403, q: 0.5988023952095809, stepMs: 10 });
    expect(byId('optical-stated').config).toMatchObject({ kind: 'ge_time', p: 0.01, q: 0.167, stepMs: 10 });
    expect(byId('dvb-train').config).toMatchObject({ kind: 'outage', periodMs: 258, durationMs: 15.2, phaseMs: 0, jitterMs: 0 });
    expect(byId('wifi').config).toMatchObject({ kind: 'bernoulli', loss: 0.01 });
    // The file the browser reads is the one the backend's test reads.
    const table = JSON.parse(readFileSync(new URL('../../../../labs/channels.json', import.meta.url), 'utf8')) as { presets: { id: string }[] };
    expect(channelPresets.map((preset) => preset.id)).toEqual(table.presets.map((preset) => preset.id));
  });

  it('offers the stated p/q only under the stated name', () => {
    const stated = channelPresets.filter((preset) => preset.params.p === 0.01 && preset.params.q === 0.167);
    expect(stated.map((preset) => preset.label)).toEqual([
      'Optical satellite (stated p/q): p 0.01, q 0.167 per 10 ms step as the study states them: 5.65 % of the time lost in 60 ms bursts',
    ]);
    expect(byId('optical').preset.label).toBe(
      'Optical satellite: 2.56 % of the time lost in bursts of 16.7 ms, as the study measured (Gilbert-Elliott, 10 ms steps)',
    );
  });

  it('says that the browser\'s outage starts at 0 ms where a backend run draws its phase', () => {
    expect(byId('dvb-train').preset.note).toMatch(/^Here the first outage starts at 0 ms .* a run on the backend draws its time per iteration/);
    expect(byId('optical').preset.note).toBeUndefined();
  });
});
