import { csvFormatRows } from 'd3';
import type { StudyReport } from '../api/types';
import { satlabBounds } from './report';

/** The figures of a row that get a column per metric, in report_csv's order. */
const KINDS = ['published', 'satlab', 'q1', 'q3', 'published_std', 'satlab_std', 'satlab_at_most'] as const;

/**
 * reportCsv is a report as CSV, in the columns the API's report.csv has (report_csv in
 * backend/satlab/studies/report.py): one row per published figure, values in columns named with
 * their metric and so their unit; satlab_at_least names the figures a timed-out run could raise.
 * The page makes it for a shipped report, which no API serves; fields an older report lacks are
 * left empty.
 */
export function reportCsv(report: StudyReport): string {
  const axes = Object.keys(report.axes);
  const metrics = [...new Set(report.rows.map((row) => row.metric))];
  const valueColumns = metrics.flatMap((metric) => KINDS.map((kind) => `${kind}_${metric}`));
  const text = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));
  const header = [...axes, 'statistic', ...valueColumns, 'satlab_at_least', 'n', 'runs', 'failed', 'timed_out', 'ratio', 'band', 'in_band', 'source', 'flags'];
  const rows = report.rows.map((row) => {
    const values = Object.fromEntries(KINDS.map((kind) => [`${kind}_${row.metric}`, text(row[kind])]));
    return [
      ...axes.map((axis) => row.configuration[axis] ?? ''),
      row.statistic,
      ...valueColumns.map((column) => values[column] ?? ''),
      satlabBounds(row).join(' '),
      String(row.n),
      text(row.runs),
      String(row.failed),
      text((row as { timed_out?: number | null }).timed_out),
      text(row.ratio),
      row.band ?? '',
      row.in_band === null ? '' : row.in_band ? 'yes' : 'no',
      row.source,
      ((row as { flags?: string[] }).flags ?? []).join('; '),
    ];
  });
  return `${csvFormatRows([header, ...rows])}\n`;
}
