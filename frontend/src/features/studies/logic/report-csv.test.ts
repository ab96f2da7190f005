import { fileURLToPath } from 'node:url';
import { csvParse } from 'd3';
import { describe, expect, it } from 'vitest';
import { readStudies } from '../../../../scripts/studies-asset';
import type { StudyReport } from '../api/types';
import { reportCsv } from './report-csv';

const labsDir = fileURLToPath(new URL('../../../../../labs', import.meta.url));
const report = readStudies(labsDir).data.find((one) => one.id === 'petrou2022')?.shipped_report as StudyReport;

describe('reportCsv', () => {
  it('has a row per published figure, its configuration by level and its figures in columns named with their unit', () => {
    const rows = csvParse(reportCsv(report));
    // report_csv's columns (backend/tests/studies/test_report.py holds the same list).
    expect(rows.columns).toEqual([
      ...Object.keys(report.axes),
      'statistic',
      ...['published', 'satlab', 'q1', 'q3', 'published_std', 'satlab_std', 'satlab_at_most'].map((kind) => `${kind}_flow_download_time_s`),
      'satlab_at_least',
      'n',
      'runs',
      'failed',
      'timed_out',
      'ratio',
      'band',
      'in_band',
      'source',
      'flags',
    ]);
    expect(rows).toHaveLength(report.rows.length);
    report.rows.forEach((row, index) => {
      const line = rows[index];
      expect(line.tunnel).toBe(row.configuration.tunnel);
      expect(Number(line.published_flow_download_time_s)).toBe(row.published);
      expect(line.satlab_flow_download_time_s === '' ? null : Number(line.satlab_flow_download_time_s)).toBe(row.satlab);
      expect(line.in_band).toBe(row.in_band === null ? '' : row.in_band ? 'yes' : 'no');
      expect(line.published_std_flow_download_time_s).toBe(row.published_std === null ? '' : String(row.published_std));
      expect([line.runs, line.flags]).toEqual([String(row.runs), row.flags.join('; ')]);
    });
  });
});
