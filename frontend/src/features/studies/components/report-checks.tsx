import type { ReportCheck, Study } from '../api/types';
import { explanationOf } from '../logic/explanations';
import { checkBoundText, checkVerdict, comparedColumn, comparedText, comparisonVerdict, configurationLabel, mediansText, metricLabel } from '../logic/report';
import { WhyNote } from './why-note';

export interface ReportChecksProps {
  /** The study, whose README the notes on failing checks link into. */
  studyId: string;
  /** The report's checks; without a report, the study's statements, not measured. */
  checks: ReportCheck[] | Study['checks'];
  /** The axes that name a configuration. */
  axes: string[];
}

/** ReportChecks lists the study's conclusions, each with whether it holds on satlab's medians and every comparison (ratio, difference or median) against its bound. */
export function ReportChecks({ studyId, checks, axes }: ReportChecksProps) {
  return (
    <section aria-labelledby="study-checks-heading">
      <h3 id="study-checks-heading">The study's conclusions, checked on satlab's medians</h3>
      <ul className="study-checks">
        {checks.map((check) => {
          const verdict = checkVerdict('holds' in check ? check : null);
          return (
            <li key={check.id} className={`study-check check-${verdict.replaceAll(' ', '-')}`} aria-labelledby={`check-${check.id}`}>
              <p id={`check-${check.id}`}>
                <strong className="check-verdict">{verdict}</strong> <span className="check-id">{check.id}</span>: {check.statement}
              </p>
              {verdict === 'fails' && 'comparisons' in check && (
                <p className="check-why">
                  <strong>Why it fails:</strong> <WhyNote studyId={studyId} explanation={explanationOf(check)} />
                </p>
              )}
              {'comparisons' in check && (
                <div className="table-scroll">
                  <table aria-label={`Comparisons of ${check.id}`}>
                    <caption>
                      {checkBoundText(check)}
                      {check.metric !== 'download_time_s' && ` (${metricLabel(check.metric)})`}.
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Numerator</th>
                        <th scope="col">Denominator</th>
                        <th scope="col">Medians</th>
                        <th scope="col">{comparedColumn(check)}</th>
                        <th scope="col">Holds</th>
                      </tr>
                    </thead>
                    <tbody>
                      {check.comparisons.map((comparison, index) => (
                        <tr key={index}>
                          <td>{configurationLabel(comparison.numerator, axes)}</td>
                          <td>{comparison.denominator ? configurationLabel(comparison.denominator, axes) : '–'}</td>
                          <td className="number">{mediansText(check, comparison)}</td>
                          <td className="number">{comparedText(check, comparison)}</td>
                          <td>{{ holds: 'yes', fails: 'no', open: 'open', 'not measured': '–' }[comparisonVerdict(comparison)]}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
