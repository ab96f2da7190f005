import { CampaignProgressBar } from '../../../shared/runs';
import type { StudyRun } from '../api/types';
import type { ReportChoice } from '../hooks/use-report-choice';

export interface StudyRunsProps {
  runs: StudyRun[];
  /** Whether the recipe ships a report, listed first. */
  shipped: boolean;
  /** The report on show. */
  shown: ReportChoice;
  onChoose: (choice: ReportChoice) => void;
  failure: string | null;
}

const when = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');

/** StudyRuns lists the reports there are to show: the shipped one, and each run of the study, newest first. */
export function StudyRuns({ runs, shipped, shown, onChoose, failure }: StudyRunsProps) {
  return (
    <section className="panel study-runs" aria-labelledby="study-runs-heading">
      <h2 id="study-runs-heading">Reports</h2>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      <ul className="study-run-list">
        {shipped && (
          <li>
            <button type="button" aria-pressed={shown === 'shipped'} onClick={() => onChoose('shipped')}>
              Shipped with the recipe
            </button>
          </li>
        )}
        {runs.some((run) => !run.study_quick) && (
          <li>
            <button type="button" aria-pressed={shown === 'full'} onClick={() => onChoose('full')}>
              Every full run together
            </button>{' '}
            <span className="hint">{runs.filter((run) => !run.study_quick).length} full study runs, their runs pooled per configuration</span>
          </li>
        )}
        {runs.map((run) => (
          <li key={run.campaign_id}>
            <button type="button" aria-pressed={shown === run.campaign_id} onClick={() => onChoose(run.campaign_id)}>
              Study run {run.campaign_id}
            </button>{' '}
            <span className="hint">
              {run.study_quick ? 'quick' : 'full'}, started {when(run.created_at)} UTC, {run.status}
            </span>
            <CampaignProgressBar progress={run.progress} label={`Progress of study run ${run.campaign_id}`} />
          </li>
        ))}
      </ul>
      {runs.length === 0 && <p className="hint">No study runs yet.</p>}
    </section>
  );
}
