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
    expect(study?.summary).not.toMatch(/\n| {2}/);
    // The recipe's axes and levels in the file's order (the study's first, satlab's later additions after them).
    expect(Object.keys(study?.axes ?? {})).toEqual(['channel', 'wifi', 'transport', 'flows', 'tunnel']);
    expect(study?.axes.channel).toEqual(['ideal', 'optical', 'dvb-train']);
    expect(study?.axes.tunnel.slice(0, 4)).toEqual(['none', 'S(10,100)', 'S(5,100)', 'S(2,100)']);
    expect(study?.experiments['one-flow'].quick).toEqual({ channel: ['ideal'], tunnel: ['none', 'S(5,100)'] });
    expect(study?.checks.map((check) => check.id)).toContain('s2-rescues-cubic');
  });

  it('reads every row of published.csv, its metric from the column that has the value', () => {
    const study = petrou();
    const lines = readFileSync(`${labsDir}/studies/petrou2022/published.csv`, 'utf8').trim().split('\n');
    expect(study?.published).toHaveLength(lines.length - 1);
    expect(study?.published[1]).toEqual({
      configuration: { experiment: 'one-flow', channel: 'ideal', wifi: 'none', flows: '1', transport: 'tcp-cubic', tunnel: 'S(10,100)' },
      metric: 'flow_download_time_s',
      statistic: 'median',
      value: 19.04,
      source: 'Table II',
    });
  });

  it("reads a study's experiments, their axes' levels ('all': every level), its metrics, and published rows by experiment", () => {
    const martin = readStudies(labsDir).data.find((study) => study.id === 'martin2022');
    expect(Object.keys(martin?.experiments ?? {})).toEqual(['bulk', 'fairness', 'latecomers', 'upload-ngtcp2', 'upload-picoquic']);
    expect(martin?.experiments.bulk.axes.loss).toEqual(['0', '0.1%', '1%']);
    expect(martin?.experiments.latecomers.quick).toBeNull();
    expect(martin?.experiments['upload-ngtcp2'].quick).toEqual({ download: ['ngtcp2-cubic'], upload: ['ngtcp2-bbr1'], uplink: ['2'] });
    expect(martin?.metrics).toContain('ack_frames_sent');
    expect(martin?.published[0]).toEqual({
      configuration: { experiment: 'upload-ngtcp2', download: 'ngtcp2-bbr2', loss: '', upload: 'ngtcp2-bbr2', uplink: '20', competition: '' },
      metric: 'download_goodput_mbps',
      statistic: 'mean',
      value: 14.73,
      source: 'Experiment 5 table',
    });
    expect(Object.keys(petrou()?.experiments ?? {})[0]).toBe('one-flow');
  });
});
