import { type KeyboardEvent, useId } from 'react';
import type { ReportRow } from '../api/types';
import { bandVerdict, commonSource, configurationLabel, formatFigure, metricLabel, satlabFigure } from '../logic/report';

export interface ReportTableProps {
  rows: ReportRow[];
  /** The axes that tell the rows apart, named in the configuration column. */
  axes: string[];
  /** The levels all rows share, said in the caption: "wifi none, flows 1". */
  fixed: string;
}

/** ReportTable puts satlab's figures beside the published ones, a row per published figure, each median marked by its band. */
export function ReportTable({ rows, axes, fixed }: ReportTableProps) {
  const metrics = [...new Set(rows.map((row) => metricLabel(row.metric)))].join(', ');
  const source = commonSource(rows);
  return (
    <div className="table-scroll">
      <table className="study-table" aria-label="Published figures beside satlab's">
        <caption>
          {metrics}: the study's figure, satlab's (median [IQR] of n runs) and their ratio; medians{source && ` from ${source}`} unless the row says.
          {fixed && ` All rows: ${fixed}.`}
        </caption>
        <thead>
          <tr>
            <th scope="col">{axes.join(' · ')}</th>
            <th scope="col">Published</th>
            <th scope="col">satlab [IQR]</th>
            <th scope="col">n</th>
            <th scope="col">Ratio</th>
            <th scope="col">Band</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className={`band-${bandVerdict(row).replaceAll(' ', '-')}`}>
              <th scope="row">
                {configurationLabel(row.configuration, axes)}
                {row.statistic !== 'median' && <span className="statistic">, {row.statistic}</span>}
                {row.source !== source && <span className="statistic"> ({row.source})</span>}
              </th>
              <td className="number">{formatFigure(row.published)}</td>
              <td className="number">{satlabFigure(row)}</td>
              <td className="number">
                {row.n}
                {row.failed > 0 && ` (${row.failed} failed)`}
              </td>
              <td className="number">{formatFigure(row.ratio, 3)}</td>
              <td>
                <BandMark row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
  const sign = { 'in band': '✓ ', 'out of band': '✗ ', 'not measured': '', 'not judged': '' }[verdict];
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
      </span>
    </span>
  );
}
