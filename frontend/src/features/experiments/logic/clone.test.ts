import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../../shared/runs';
import { campaignChoices, cloneChoices, scenarioChanges } from './clone';
import { campaignPlan } from './campaign-request';
import { overridesFor } from './overrides';
import { parseValue } from './parameter-values';

/** geo-ideal as GET api/labs/geo-ideal validates it, with a path (the parts the clone reads). */
const geoIdeal = {
  name: 'geo-ideal',
  description: 'The ideal GEO path.',
  seed: 1,
  iterations: 1,
  path: { forward: { rate_mbps: 12, delay_ms: 250, channel: { model: 'perfect' } }, return: { rate_mbps: 3, delay_ms: 250 } },
  tunnel: null,
  flows: [{ transport: 'tcp', cc: 'cubic', hystart: false, size_bytes: 20971520, duration_s: null, count: 1, start_s: 0, direction: 'download' }],
} as unknown as Scenario;

/** A run of geo-ideal with a smaller size, BBR, S(5,100) and a lossy forward channel. */
const run = {
  ...geoIdeal,
  seed: 7,
  path: { ...(geoIdeal as unknown as { path: object }).path, forward: { rate_mbps: 12, delay_ms: 250, channel: { model: 'bernoulli', loss: 0.01 } } },
  tunnel: { k: 5, z: 100, symbol_bytes: null, flush_ms: 10, protect: 'all' },
  flows: [{ ...geoIdeal.flows[0], cc: 'bbr', hystart: null, size_bytes: 2000000 }],
} as unknown as Scenario;

describe('scenarioChanges', () => {
  it('lists leaf by leaf what a run changed in its lab', () => {
    expect(scenarioChanges(geoIdeal, run)).toEqual([
      'seed=7',
      'path.forward.channel.model=bernoulli',
      'path.forward.channel.loss=0.01',
      'tunnel.k=5',
      'tunnel.z=100',
      'tunnel.flush_ms=10',
      'tunnel.protect=all',
      'flows.0.cc=bbr',
      'flows.0.hystart=null',
      'flows.0.size_bytes=2000000',
    ]);
    expect(scenarioChanges(geoIdeal, geoIdeal)).toEqual([]);
  });
});

describe('cloneChoices', () => {
  it('shows the run in the controls and sends what the run ran', () => {
    const choices = cloneChoices(geoIdeal, run);
    expect(choices).toMatchObject({ cc: 'bbr', hystart: null, sizeBytes: 2000000, tunnel: { k: 5, z: 100 } });
    expect(choices.extra.split('\n')).toEqual([
      'seed=7',
      'path.forward.channel.model=bernoulli',
      'path.forward.channel.loss=0.01',
      'tunnel.flush_ms=10',
      'tunnel.protect=all',
    ]);
    expect(overridesFor(geoIdeal, choices)).toEqual([
      'flows.0.cc=bbr',
      'flows.0.hystart=null',
      'flows.0.size_bytes=2000000',
      'tunnel.k=5',
      'tunnel.z=100',
      ...choices.extra.split('\n'),
    ]);
  });
});

describe('campaignChoices', () => {
  const spec = {
    name: 'cubic-vs-bbr',
    description: '',
    scenario: 'geo-optical',
    set: { 'flows.0.size_bytes': 2000000, 'flows.0.hystart': null },
    matrix: { 'flows.0.cc': ['cubic', 'bbr'], tunnel: [null, { k: 5, z: 100 }], 'path.forward.channel.model': ['true'] },
    iterations: 3,
    parallel: 1,
    seed: 1,
  };

  it('loads a stored campaign into the form, which then sends the same campaign', () => {
    const choices = campaignChoices(spec);
    expect(choices?.matrix[1]).toEqual({ path: 'tunnel', values: 'null, {"k":5,"z":100}' });
    // The form sends no description: the backend's default, ''.
    expect({ description: '', ...campaignPlan(choices!, null).request }).toEqual(spec);
  });

  it('keeps text that reads as another type as text', () => {
    expect(parseValue(campaignChoices(spec)!.matrix[2].values)).toBe('true');
  });

  it('cannot hold a campaign of an inline scenario', () => {
    expect(campaignChoices({ ...spec, scenario: { name: 'x' } })).toBeNull();
  });
});
