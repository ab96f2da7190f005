import { type KeyboardEvent, useId } from 'react';
import type { ReportRow } from '../api/types';
import { explanationOf } from '../logic/explanations';
import { bandVerdict, commonSource, configurationLabel, type ExperimentTable, failedText, formatFigure, metricLabel, ratioText, satlabFigure } from '../logic/report';
import { WhyNote } from './why-note';

export interface ReportTableProps {
  table: ExperimentTable;
  /** The study, whose README the notes on out-of-band figures link into. */
  studyId: string;
}

/**
 * ReportTable puts satlab's figures beside the published ones for one experiment: a line per
 * configuration, a column group per metric (published, satlab median [IQR], n, ratio, band), each
 * published median or mean marked by its band.
 */
export function ReportTable({ table, studyId }: ReportTableProps) {
  const published = table.lines.flatMap((line) => Object.values(line.cells)).filter((cell) => cell.published !== null);
  const source = commonSource(published);
  // An experiment's table is under its title; a study's only table says its metrics.
  const what = table.name ? "The study's figure" : `${table.metrics.map(metricLabel).join(', ')}: the study's figure`;
  const outOfBand = table.lines.flatMap((line) =>
    table.metrics.flatMap((metric) => {
      const cell = line.cells[metric];
      return cell && bandVerdict(cell) === 'out of band' ? [{ line, metric, cell }] : [];
    }),
  );
  return (
    <div className="study-table-block">
      <div className="table-scroll study-table-scroll" tabIndex={0} role="group" aria-label="Scroll the table sideways">
        <table className="study-table" aria-label={table.name ? `Experiment ${table.name}: published figures beside satlab's` : "Published figures beside satlab's"}>
          <caption>
            {what}, satlab's (median [IQR] of n runs) and their ratio{source && `; published figures from ${source} unless the line says`}.
            {table.fixed && ` All lines: ${table.fixed}.`}
          </caption>
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                {table.axes.join(' · ')}
              </th>
              {table.metrics.map((metric) => (
                <th key={metric} scope="colgroup" colSpan={5} className="metric-group">
                  {metricLabel(metric)}
                </th>
              ))}
            </tr>
            <tr>
              {table.metrics.map((metric) => (
                <MetricHeaders key={metric} />
              ))}
            </tr>
          </thead>
          <tbody>
            {table.lines.map((line, index) => {
              const cells = Object.values(line.cells);
              const statistic = line.statistic === 'median' ? '' : `, ${line.statistic}`;
              const lineSource = cells.find((cell) => cell.published !== null)?.source ?? source;
              return (
                <tr key={index}>
                  <th scope="row">
                    {configurationLabel(line.configuration, table.axes) || 'the configuration'}
                    {statistic && <span className="statistic">{statistic}</span>}
                    {lineSource !== source && <span className="statistic"> ({lineSource})</span>}
                  </th>
                  {table.metrics.map((metric) => (
                    <MetricCells key={metric} row={line.cells[metric]} />
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {outOfBand.length > 0 && (
        <ul className="band-notes" aria-label="Why figures are out of their band">
          {outOfBand.map(({ line, metric, cell }) => (
            <li key={`${configurationLabel(line.configuration, table.axes)}-${metric}-${line.statistic}`}>
              <strong>
                {configurationLabel(line.configuration, table.axes) || 'The configuration'}, {metricLabel(metric)}, out of band:
              </strong>{' '}
              <WhyNote studyId={studyId} explanation={explanationOf(cell)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MetricHeaders() {
  return (
    <>
      <th scope="col">Published</th>
      <th scope="col">satlab [IQR]</th>
      <th scope="col">n</th>
      <th scope="col">Ratio</th>
      <th scope="col">Band</th>
    </>
  );
}

/** MetricCells are one metric's five cells of a line (dashes where the line has no such figure). */
function MetricCells({ row }: { row: ReportRow | undefined }) {
  if (!row) {
    return (
      <>
        {[0, 1, 2, 3, 4].map((cell) => (
          <td key={cell} className="muted">
            –
          </td>
        ))}
      </>
    );
  }
  return (
    <>
      <td className={`number band-${bandVerdict(row).replaceAll(' ', '-')}`}>{formatFigure(row.published)}</td>
      <td className="number">{satlabFigure(row)}</td>
      <td className="number">
        {row.n}
        {failedText(row)}
      </td>
      <td className="number">{ratioText(row)}</td>
      <td>
        <BandMark row={row} />
      </td>
    </>
  );
}

/**
 * BandMark says whether a median is in its band, in words (and a sign, not colour alone); the
 * band and why it is that wide show on hover and on keyboard focus, and are the button's description.
 */
function BandMark({ row }: { row: ReportRow }) {
  const tipId = useId();
  const verdict = bandVerdict(row);
  if (row.band === null) return <span className="muted">–</span>;
  const sign = { 'in band': '✓ ', 'out of band': '✗ ', open: '? ', 'not measured': '', 'not judged': '' }[verdict];
  // Escape hides the tip (WCAG 1.4.13): the button lets go of the focus that shows it.
  const dismiss = (event: KeyboardEvent<HTMLButtonElement>) => event.key === 'Escape' && event.currentTarget.blur();
  return (
    <span className="band-mark">
      <button type="button" className={`band-button band-${verdict.replaceAll(' ', '-')}`} aria-describedby={tipId} onKeyDown={dismiss}>
        <span aria-hidden="true">{sign}</span>
        {verdict}
      </button>
      <span role="tooltip" id={tipId} className="band-tip">
        Band {row.band}: {row.band_reason}
        {verdict === 'open' && ' Open: runs the time limit stopped count at their bound, and a longer time could take the median either side of the band.'}
      </span>
    </span>
  );
}
