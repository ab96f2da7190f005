import { describe, expect, it } from 'vitest';
import { type LabSettings, parseWidgetBlock, runCommand, widgetBlocksIn } from './widget-blocks';

const labs: Record<'fec' | 'channel', LabSettings> = {
  fec: { defaults: { k: 3, z: 9, kind: 'bernoulli', loss: 0.1 }, choices: { kind: ['bernoulli', 'outage'] } },
  channel: { defaults: { z: 100, kind: 'bernoulli', ks: '1,2' }, choices: { kind: ['bernoulli', 'outage'] } },
};

const problemOf = (language: string, text: string) => {
  const block = parseWidgetBlock(language, text, labs);
  if (block.kind !== 'invalid') throw new Error(`expected an invalid block, got ${JSON.stringify(block)}`);
  return block.problem;
};

describe('parseWidgetBlock', () => {
  it('reads a lab preset', () => {
    expect(parseWidgetBlock('satlab-fec', '{"k": 5, "z": 20, "kind": "outage"}', labs)).toEqual({
      kind: 'fec',
      preset: { k: 5, z: 20, kind: 'outage' },
    });
    expect(parseWidgetBlock('satlab-channel', '', labs)).toEqual({ kind: 'channel', preset: {} });
  });

  it('reads a run block, with its overrides and reference', () => {
    expect(
      parseWidgetBlock('satlab-run', '{"lab": "geo-optical", "set": ["flows.0.cc=bbr"], "reference": "optical-bbr"}', labs),
    ).toEqual({ kind: 'run', run: { lab: 'geo-optical', set: ['flows.0.cc=bbr'], reference: 'optical-bbr' } });
    expect(parseWidgetBlock('satlab-run', '{"lab": "geo-ideal"}', labs)).toEqual({
      kind: 'run',
      run: { lab: 'geo-ideal', set: [], reference: null },
    });
  });

  it('names a JSON syntax error', () => {
    expect(problemOf('satlab-fec', '{"k": 5,')).toMatch(/^The satlab-fec block is not JSON: .+\.$/);
  });

  it('refuses what is not one object', () => {
    expect(problemOf('satlab-fec', '[5, 20]')).toBe('The satlab-fec block must be one JSON object, such as {"k": 5, "z": 20}.');
    expect(problemOf('satlab-run', '"geo-ideal"')).toBe('The satlab-run block must be one JSON object, such as {"lab": "geo-ideal"}.');
  });

  it('names an unknown setting and lists the lab\'s', () => {
    expect(problemOf('satlab-fec', '{"kk": 5}')).toBe(
      'The satlab-fec block sets "kk", which is not a setting of the FEC lab; its settings are k, z, kind, loss.',
    );
  });

  it('refuses a value of the wrong type or not among the choices', () => {
    expect(problemOf('satlab-fec', '{"k": "5"}')).toBe('The satlab-fec block sets "k" to "5"; the FEC lab\'s k is a number.');
    expect(problemOf('satlab-channel', '{"kind": "gauss"}')).toBe('The satlab-channel block sets "kind" to "gauss"; allowed: bernoulli, outage.');
  });

  it('names an unknown widget', () => {
    expect(problemOf('satlab-plot', '{}')).toBe(
      '"satlab-plot" is not a widget of the lab sheets; they have satlab-fec, satlab-channel, satlab-run.',
    );
  });

  it('refuses a run block without a lab, with bad overrides or reference, or with unknown fields', () => {
    expect(problemOf('satlab-run', '{"set": []}')).toMatch(/^The satlab-run block needs "lab"/);
    expect(problemOf('satlab-run', '{"lab": "../etc"}')).toMatch(/^The satlab-run block needs "lab"/);
    expect(problemOf('satlab-run', '{"lab": "geo-ideal", "set": "flows.0.cc=bbr"}')).toMatch(/"set" must be a list of overrides/);
    expect(problemOf('satlab-run', '{"lab": "geo-ideal", "set": ["bbr"]}')).toMatch(/"set" must be a list of overrides/);
    expect(problemOf('satlab-run', '{"lab": "geo-ideal", "reference": "a/b"}')).toMatch(/"reference" must name a file/);
    expect(problemOf('satlab-run', '{"lab": "geo-ideal", "iterations": 3}')).toBe(
      'The satlab-run block has "iterations", which it does not know; it takes lab, set, reference.',
    );
  });
});

describe('widgetBlocksIn', () => {
  it('finds the satlab blocks of a sheet, and only those', () => {
    const markdown = [
      '# A sheet',
      '```satlab-fec',
      '{"k": 5}',
      '```',
      '```python',
      'print(1)',
      '```',
      '```satlab-run',
      '{"lab": "geo-ideal",',
      ' "set": []}',
      '```',
      '```satlab-channel',
      '```',
    ].join('\n');
    expect(widgetBlocksIn(markdown)).toEqual([
      { language: 'satlab-fec', text: '{"k": 5}' },
      { language: 'satlab-run', text: '{"lab": "geo-ideal",\n "set": []}' },
      { language: 'satlab-channel', text: '' },
    ]);
  });
});

describe('runCommand', () => {
  it('gives the command line of the same run', () => {
    expect(runCommand({ lab: 'geo-optical', set: ['flows.0.cc=bbr', 'tunnel.k=5'], reference: null })).toBe(
      "satlab run labs/geo-optical.yaml --set 'flows.0.cc=bbr' --set 'tunnel.k=5'",
    );
  });
});
