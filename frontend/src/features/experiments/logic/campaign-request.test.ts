import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../../shared/runs';
import { flowGroupOf, scenarioOf } from '../../../test/api-fixtures';
import { type CampaignChoices, campaignPlan, hystartArms, initialCampaignChoices, matrixEntryPaths } from './campaign-request';

/** geo-ideal as GET api/labs/geo-ideal validates it (the parts the console reads): Hystart off. */
const geoIdeal: Scenario = scenarioOf({ description: 'The ideal GEO path.', flows: [flowGroupOf({ size_bytes: 20971520 })] });

const choices = (patch: Partial<CampaignChoices>): CampaignChoices => ({ ...initialCampaignChoices('geo-ideal'), ...patch });

describe('campaignPlan', () => {
  it('turns the form into the request, Hystart set per arm: the lab\'s for CUBIC, the host\'s for BBR', () => {
    // Issue 18: the form once set flows.0.hystart=null for every run, so the CUBIC arm lost the lab's Hystart off.
    const plan = campaignPlan(
      choices({ fixed: 'flows.0.size_bytes=200000', matrix: [{ path: 'flows.0.cc', values: 'cubic, bbr' }], iterations: 2, parallel: 2 }),
      geoIdeal,
    );
    expect(plan.request).toEqual({
      name: 'geo-ideal',
      scenario: 'geo-ideal',
      set: { 'flows.0.size_bytes': 200000 },
      matrix: { 'flows.0.{cc,hystart}': [{ cc: 'cubic', hystart: false }, { cc: 'bbr', hystart: null }] },
      iterations: 2,
      parallel: 2,
      seed: 1,
    });
    expect(plan.hystartArms.map((joint) => joint.replaces)).toEqual([['flows.0.cc']]);
    expect(plan).toMatchObject({ configurations: 2, runs: 4, problems: {} });
  });

  it('takes a joint entry as typed, and refuses a path set twice', () => {
    const typed = campaignPlan(
      choices({ matrix: [{ path: 'flows.0.{cc,hystart}', values: '{cc: cubic, hystart: true}, {cc: reno, hystart: null}' }] }),
      geoIdeal,
    );
    expect(typed.request.matrix).toEqual({ 'flows.0.{cc,hystart}': [{ cc: 'cubic', hystart: true }, { cc: 'reno', hystart: null }] });
    expect(typed.hystartArms).toEqual([]);
    const twice = campaignPlan(
      choices({ matrix: [{ path: 'flows.0.{cc,hystart}', values: '{cc: cubic, hystart: true}' }, { path: 'flows.0.cc', values: 'bbr' }] }),
      geoIdeal,
    );
    expect(twice.problems['path-1']).toEqual(['Path of parameter 2: flows.0.cc is set by an earlier parameter too; give each path once.']);
  });

  it('counts the runs of the Cartesian product times the iterations, objects read as values', () => {
    const plan = campaignPlan(
      choices({
        name: ' cc-vs-fec ',
        matrix: [
          { path: 'tunnel', values: 'null, {k: 5, z: 100}' },
          { path: '', values: '' },
          { path: 'path.forward.channel', values: '{model: bernoulli, loss: 0.01}, {model: perfect}, {"model": "outage", "period_ms": 258, "duration_ms": 15.5}' },
        ],
        iterations: 5,
        seed: 7,
      }),
      geoIdeal,
    );
    expect(plan.request.name).toBe('cc-vs-fec');
    expect(plan.request.matrix.tunnel).toEqual([null, { k: 5, z: 100 }]);
    expect(plan.request.matrix['path.forward.channel']).toHaveLength(3);
    expect(plan).toMatchObject({ configurations: 6, runs: 30, hystartArms: [], problems: {} });
    expect(plan.request.set).toEqual({});
  });

  it('is one configuration without a matrix', () => {
    expect(campaignPlan(choices({ iterations: 4 }), geoIdeal)).toMatchObject({ configurations: 1, runs: 4, request: { matrix: {} } });
  });

  it('names each control whose text is wrong', () => {
    const plan = campaignPlan(
      choices({
        fixed: 'flows.0.size_bytes=200000\nno equals\ntunnel={k: 5',
        matrix: [
          { path: 'flows.0.cc', values: '' },
          { path: 'flows 0', values: 'bbr' },
          { path: 'flows.0.cc', values: 'reno' },
          { path: 'flows.0.size_bytes', values: '1000' },
          { path: '', values: 'cubic' },
          { path: 'tunnel.k', values: '2,,5' },
        ],
      }),
      geoIdeal,
    );
    expect(plan.problems).toEqual({
      fixed: [
        'Fixed overrides, line 2: "no equals" is not dotted.path=value (e.g. flows.0.cc=bbr).',
        'Fixed overrides, tunnel: expected "," or "}" in a {…} mapping at the end of "{k: 5".',
      ],
      'values-0': ['Values of parameter 1: give one or more, separated by commas (e.g. cubic, bbr).'],
      'path-1': ['Path of parameter 2: "flows 0" is not a dotted path (e.g. flows.0.cc).'],
      'path-2': ['Path of parameter 3: flows.0.cc is set by an earlier parameter too; give each path once.'],
      'path-3': ['Path of parameter 4: flows.0.size_bytes is a fixed override too; give each path in one of them.'],
      'path-4': ['Path of parameter 5: give the dotted path its values go to (e.g. flows.0.cc).'],
      'values-5': ['Values of parameter 6: a value is missing at character 3 of "2,,5".'],
    });
  });

  it('names the request paths each control sets, for the API problems', () => {
    const plan = campaignPlan(choices({ fixed: 'flows.0.size_bytes=1', matrix: [{ path: 'flows.0.cc', values: 'cubic, bbr' }] }), geoIdeal);
    expect(plan.targets).toEqual([
      { name: 'name', paths: ['name'] },
      { name: 'lab', paths: ['scenario'] },
      { name: 'fixed', paths: ['set.flows.0.size_bytes'] },
      { name: 'values-0', paths: ['matrix.flows.0.cc', 'matrix.flows.0.{cc,hystart}', 'matrix.flows.0.hystart'] },
      { name: 'iterations', paths: ['iterations'] },
      { name: 'parallel', paths: ['parallel'] },
      { name: 'seed', paths: ['seed'] },
    ]);
  });
});

describe('hystartArms', () => {
  const withTwoGroups: Scenario = {
    ...geoIdeal,
    flows: [geoIdeal.flows[0], { ...geoIdeal.flows[0], transport: 'quic-picoquic', cc: 'bbr1', hystart: null }],
  };
  const armsOf = (set: Record<string, unknown>, matrix: Record<string, unknown[]>, lab = geoIdeal) =>
    hystartArms(lab, set, matrix).map(({ entry, arms }) => ({ entry, arms }));

  it('sets it arm by arm when some configuration runs the group with something other than tcp cubic', () => {
    expect(armsOf({}, { 'flows.0.transport': ['tcp', 'quic-picoquic'] })).toEqual([
      { entry: 'flows.0.{transport,hystart}', arms: [{ transport: 'tcp', hystart: false }, { transport: 'quic-picoquic', hystart: null }] },
    ]);
    expect(armsOf({}, { 'flows.0.transport': ['tcp', 'quic-picoquic'], 'flows.0.cc': ['cubic', 'bbr'] })[0].arms).toEqual([
      { transport: 'tcp', cc: 'cubic', hystart: false },
      { transport: 'tcp', cc: 'bbr', hystart: null },
      { transport: 'quic-picoquic', cc: 'cubic', hystart: null },
      { transport: 'quic-picoquic', cc: 'bbr', hystart: null },
    ]);
    expect(armsOf({ 'flows.0.transport': 'quic-ngtcp2' }, { 'flows.0.cc': ['cubic'] })).toEqual([
      { entry: 'flows.0.{cc,hystart}', arms: [{ cc: 'cubic', hystart: null }] },
    ]);
  });

  it('leaves it when every configuration stays tcp cubic, the lab leaves it to the host, or the user sets it', () => {
    expect(armsOf({}, { 'flows.0.cc': ['cubic'], tunnel: [null, { k: 5, z: 100 }] })).toEqual([]);
    expect(armsOf({}, { 'flows.1.cc': ['bbr1', 'cubic'] }, withTwoGroups)).toEqual([]);
    expect(armsOf({ 'flows.0.hystart': true }, { 'flows.0.cc': ['cubic', 'bbr'] })).toEqual([]);
    expect(armsOf({}, { 'flows.0.cc': ['cubic', 'bbr'], 'flows.0.hystart': [null] })).toEqual([]);
    expect(armsOf({}, { 'flows.3.cc': ['bbr'] })).toEqual([]);
  });
});

describe('matrixEntryPaths', () => {
  it('lists the paths an entry sets, as the backend expands it', () => {
    expect(matrixEntryPaths('flows.0.cc')).toEqual(['flows.0.cc']);
    expect(matrixEntryPaths('flows.0.{cc,hystart}')).toEqual(['flows.0.cc', 'flows.0.hystart']);
    expect(matrixEntryPaths('{a,b}')).toEqual(['a', 'b']);
  });
});
