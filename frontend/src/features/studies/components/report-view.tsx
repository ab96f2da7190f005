import type { ReactNode } from 'react';
import type { Study, StudyReport } from '../api/types';
import { reportCsv } from '../logic/report-csv';
import { experimentBandText, experimentTables, reportOrigin, studyColumns, summaryText, variedAxes } from '../logic/report';
import { ReportCharts } from './report-charts';
import { ReportChecks } from './report-checks';
import { ReportTable } from './report-table';

export interface ReportViewProps {
  study: Study;
  /** null: no report yet, the published figures alone. */
  report: StudyReport | null;
  /** Which report this is, as a heading: "Report shipped with the recipe". */
  heading: string;
  /** Where the CSV of the report is; a shipped report's is made here. */
  csvHref?: string;
  /** What else to say first: a live run's progress. */
  children?: ReactNode;
}

/**
 * ReportView is one report of a study: where it comes from, per experiment its table (a column
 * group per metric) and box plots, the checks, its CSV.
 */
export function ReportView({ study, report, heading, csvHref, children }: ReportViewProps) {
  const tables = experimentTables(study, report);
  const columns = studyColumns(study);
  // What names a configuration in the checks: the columns that differ between the study's configurations.
  const axes = variedAxes(columns, [...study.published.map((figure) => figure.configuration), ...(report?.configurations ?? []).map((entry) => entry.configuration)]);
  const href = csvHref ?? (report ? `data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(report))}` : null);
  return (
    <section className="panel study-report" aria-labelledby="study-report-heading">
      <h2 id="study-report-heading">{heading}</h2>
      {report ? <p className="report-origin">{reportOrigin(report)}</p> : <p>No report yet: the study's published figures alone.</p>}
      {report?.quick && (
        <p role="note" className="notice quick-note">
          A quick run: a smoke test that the set-up works, not a result. Its few configurations ran once each; compare a full run with
          the study.
        </p>
      )}
      {children}
      {report && <p className="report-summary">{summaryText(report)}</p>}
      {report && href && (
        <p>
          <a href={href} download={`satlab-study-${study.id}.csv`}>
            Report CSV
          </a>{' '}
          <span className="hint">one row per published figure</span>
        </p>
      )}
      {tables.length === 0 && <p>The study published no figure to compare one to one: its conclusions are the checks below.</p>}
      {tables.map((table, index) => {
        const results = (
          <div className="study-results">
            <ReportTable table={table} studyId={study.id} />
            {report && <ReportCharts report={report} table={table} />}
          </div>
        );
        // A long study (several experiments) folds each experiment under its title, the first open:
        // the page stays a page, not 20,000 px of tables and charts.
        return tables.length > 2 ? (
          <details key={table.name} className="study-experiment" open={index === 0} aria-label={`Experiment ${table.name}`}>
            <summary>
              <h3>
                {table.title} <span className="experiment-name">({table.name})</span>
              </h3>
              <span className="hint">{experimentBandText(table)}</span>
            </summary>
            {results}
          </details>
        ) : (
          <section key={table.name} className="study-experiment" aria-label={table.name ? `Experiment ${table.name}` : undefined}>
            {table.name && (
              <h3>
                {table.title} <span className="experiment-name">({table.name})</span>
              </h3>
            )}
            {results}
          </section>
        );
      })}
      <ReportChecks studyId={study.id} checks={report?.checks ?? study.checks} axes={axes} />
    </section>
  );
}
