import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStudies } from './studies-asset';

const labsDir = fileURLToPath(new URL('../../labs', import.meta.url));
const petrou = () => readStudies(labsDir).data.find((study) => study.id === 'petrou2022');

describe('readStudies', () => {
  it('reads the Petrou recipe as the API describes it: axes in order, one line of citation, defaults', () => {
    const study = petrou();
    expect(study?.title).toBe('When BBR beats FEC coded CUBIC flows over SATCOM');
    expect(study?.citation).toMatch(/^Petrou, Pradas, Royer, Lochin\. "When BBR beats FEC coded CUBIC flows over SATCOM\." .*2022\.$/);
    expect(study?.summary).not.toMatch(/\n|  /);
    expect(study?.axes).toEqual({
      channel: ['ideal', 'optical', 'dvb-train'],
      wifi: ['none', '1%'],
      transport: ['tcp-cubic', 'picoquic-bbr'],
      flows: ['1', '5'],
      tunnel: ['none', 'S(10,100)', 'S(5,100)', 'S(2,100)'],
    });
    expect(study?.quick.only.tunnel).toEqual(['none', 'S(5,100)']);
    expect(study?.checks.map((check) => check.id)).toContain('s2-rescues-cubic');
  });

  it('reads every row of published.csv, its metric from the column that has the value', () => {
    const study = petrou();
    const lines = readFileSync(`${labsDir}/studies/petrou2022/published.csv`, 'utf8').trim().split('\n');
    expect(study?.published).toHaveLength(lines.length - 1);
    expect(study?.published[1]).toEqual({
      configuration: { channel: 'ideal', wifi: 'none', flows: '1', transport: 'tcp-cubic', tunnel: 'S(10,100)' },
      metric: 'download_time_s',
      statistic: 'median',
      value: 19.04,
      source: 'Table II',
    });
  });
});
