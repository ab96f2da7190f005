import type { ReportCheck, Study } from '../api/types';
import { explanationOf } from '../logic/explanations';
import { boundText, checkVerdict, configurationLabel, formatFigure, metricLabel } from '../logic/report';
import { WhyNote } from './why-note';

export interface ReportChecksProps {
  /** The study, whose README the notes on failing checks link into. */
  studyId: string;
  /** The report's checks; without a report, the study's statements, not measured. */
  checks: ReportCheck[] | Study['checks'];
  /** The axes that name a configuration. */
  axes: string[];
}

/** ReportChecks lists the study's conclusions, each with whether it holds on satlab's medians and every ratio against its bound. */
export function ReportChecks({ studyId, checks, axes }: ReportChecksProps) {
  return (
    <section aria-labelledby="study-checks-heading">
      <h3 id="study-checks-heading">The study's conclusions, checked on satlab's medians</h3>
      <ul className="study-checks">
        {checks.map((check) => {
          const verdict = checkVerdict('holds' in check ? check.holds : null);
          // Without a denominator the bound is on each median itself.
          const bound = 'comparisons' in check && check.comparisons.every((comparison) => comparison.denominator === null);
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
                  <table aria-label={`Ratios of ${check.id}`}>
                    <caption>
                      Each {bound ? 'median' : 'ratio of medians'} must be {boundText(check)}
                      {check.metric !== 'download_time_s' && ` (${metricLabel(check.metric)})`}.
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Numerator</th>
                        <th scope="col">Denominator</th>
                        <th scope="col">Medians</th>
                        <th scope="col">{bound ? 'Median' : 'Ratio'}</th>
                        <th scope="col">Holds</th>
                      </tr>
                    </thead>
                    <tbody>
                      {check.comparisons.map((comparison, index) => (
                        <tr key={index}>
                          <td>{configurationLabel(comparison.numerator, axes)}</td>
                          <td>{comparison.denominator ? configurationLabel(comparison.denominator, axes) : '–'}</td>
                          <td className="number">
                            {formatFigure(comparison.numerator_median)}
                            {comparison.denominator && ` / ${formatFigure(comparison.denominator_median)}`}
                          </td>
                          <td className="number">{formatFigure(comparison.ratio, 3)}</td>
                          <td>{checkVerdict(comparison.holds) === 'holds' ? 'yes' : checkVerdict(comparison.holds) === 'fails' ? 'no' : '–'}</td>
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
