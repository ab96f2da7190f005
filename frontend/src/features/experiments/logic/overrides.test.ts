import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../../shared/runs';
import { flowGroupOf, scenarioOf, tunnelOf } from '../../../test/api-fixtures';
import { commandLine, labChoices, overridesFor, parseExtra, switchTransport } from './overrides';

/** geo-ideal as GET api/labs/geo-ideal validates it (the parts the console reads). */
const geoIdeal: Scenario = scenarioOf({ description: 'The ideal GEO path.', flows: [flowGroupOf({ size_bytes: 20971520 })] });

describe('overridesFor', () => {
  it('sends nothing for the lab as it is', () => {
    expect(overridesFor(geoIdeal, labChoices(geoIdeal))).toEqual([]);
  });

  it('sends each changed control as dotted.path=value', () => {
    const choices = { ...labChoices(geoIdeal), sizeBytes: 300000, count: 2, tunnel: { k: 5, z: 100 } };
    expect(overridesFor(geoIdeal, choices)).toEqual(['flows.0.size_bytes=300000', 'flows.0.count=2', 'tunnel.k=5', 'tunnel.z=100']);
  });

  it('clears Hystart when the flow is no longer tcp cubic, as the scenario requires', () => {
    const choices = switchTransport(labChoices(geoIdeal), 'quic-picoquic', ['bbr1', 'bbr', 'cubic']);
    expect(choices.cc).toBe('cubic');
    expect(overridesFor(geoIdeal, choices)).toEqual(['flows.0.transport=quic-picoquic', 'flows.0.hystart=null']);
    expect(overridesFor(geoIdeal, { ...labChoices(geoIdeal), cc: 'bbr' })).toEqual(['flows.0.cc=bbr', 'flows.0.hystart=null']);
  });

  it('removes the lab tunnel, changes only what differs in it, and replaces a duration by a size', () => {
    const withTunnel = { ...geoIdeal, tunnel: tunnelOf({ k: 5, z: 100 }) };
    expect(overridesFor(withTunnel, { ...labChoices(withTunnel), tunnel: null })).toEqual(['tunnel=null']);
    expect(overridesFor(withTunnel, { ...labChoices(withTunnel), tunnel: { k: 2, z: 100 } })).toEqual(['tunnel.k=2']);
    const timed = { ...geoIdeal, flows: [{ ...geoIdeal.flows[0], size_bytes: null, duration_s: 30 }] };
    expect(overridesFor(timed, { ...labChoices(timed), sizeBytes: 1000 })).toEqual(['flows.0.size_bytes=1000', 'flows.0.duration_s=null']);
  });

  it('appends the extra lines last, so that they win', () => {
    const choices = { ...labChoices(geoIdeal), cc: 'bbr', extra: 'flows.0.cc=reno\n' };
    expect(overridesFor(geoIdeal, choices).at(-1)).toBe('flows.0.cc=reno');
  });
});

describe('parseExtra', () => {
  it('reads one override per line, skipping blanks and comments', () => {
    expect(parseExtra('# loss on the Wi-Fi segment\npath.lan.channel.model=bernoulli\n\n path.lan.channel.loss = 0.01 ')).toEqual({
      overrides: ['path.lan.channel.model=bernoulli', 'path.lan.channel.loss=0.01'],
      paths: ['path.lan.channel.model', 'path.lan.channel.loss'],
      problems: [],
    });
  });

  it('names each line that is not dotted.path=value', () => {
    expect(parseExtra('flows.0.cc=bbr\nbbr please').problems).toEqual([
      'More overrides, line 2: "bbr please" is not dotted.path=value (e.g. flows.0.cc=bbr).',
    ]);
  });
});

describe('commandLine', () => {
  it('quotes only the words a shell would split', () => {
    expect(commandLine('geo-ideal', ['flows.0.size_bytes=300000', 'flows.1={transport: tcp, cc: bbr}'])).toBe(
      "satlab run labs/geo-ideal.yaml --set flows.0.size_bytes=300000 --set 'flows.1={transport: tcp, cc: bbr}'",
    );
  });
});
