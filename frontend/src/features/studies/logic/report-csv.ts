import { csvFormatRows } from 'd3';
import type { StudyReport } from '../api/types';

/**
 * reportCsv is a report as CSV, in the columns the API's report.csv has (report_csv in
 * backend/satlab/studies/report.py): one row per published figure, values in columns named with
 * their metric and so their unit. The page makes it for a shipped report, which no API serves.
 */
export function reportCsv(report: StudyReport): string {
  const axes = Object.keys(report.axes);
  const metrics = [...new Set(report.rows.map((row) => row.metric))];
  const valueColumns = metrics.flatMap((metric) => ['published', 'satlab', 'q1', 'q3'].map((kind) => `${kind}_${metric}`));
  const text = (value: number | null) => (value === null ? '' : String(value));
  const rows = report.rows.map((row) => {
    const values: Record<string, string> = {
      [`published_${row.metric}`]: text(row.published),
      [`satlab_${row.metric}`]: text(row.satlab),
      [`q1_${row.metric}`]: text(row.q1),
      [`q3_${row.metric}`]: text(row.q3),
    };
    return [
      ...axes.map((axis) => row.configuration[axis]),
      row.statistic,
      ...valueColumns.map((column) => values[column] ?? ''),
      String(row.n),
      String(row.failed),
      text(row.ratio),
      row.band ?? '',
      row.in_band === null ? '' : row.in_band ? 'yes' : 'no',
      row.source,
    ];
  });
  return `${csvFormatRows([[...axes, 'statistic', ...valueColumns, 'n', 'failed', 'ratio', 'band', 'in_band', 'source'], ...rows])}\n`;
}
