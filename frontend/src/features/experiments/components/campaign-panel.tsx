import { useId } from 'react';
import { campaignCsvUrl, type CampaignSpec, phaseLabel, CampaignProgressBar, StreamNotice } from '../../../shared/runs';
import { paths } from '../../../config/paths';
import { useCampaignView } from '../hooks/use-campaign-view';
import { configurationLabel } from '../logic/campaign-results';
import { describeCampaign } from '../logic/format';
import { CampaignComparison } from './campaign-comparison';

export interface CampaignPanelProps {
  /** The campaign to follow (live) or show (stored). */
  campaignId: string;
  /** Loads the campaign's file into the form, to run it again or change it. */
  onClone: (spec: CampaignSpec) => void;
}

/**
 * CampaignPanel follows one campaign: its progress and the runs going on, Cancel and Resume, its
 * CSV, and the comparison of its configurations as their runs finish.
 */
export function CampaignPanel({ campaignId, onClone }: CampaignPanelProps) {
  const headingId = useId();
  const view = useCampaignView(campaignId);
  const { detail, status, progress } = view;
  const running = detail?.items.filter((item) => item.status === 'running' && item.run_id !== null) ?? [];
  // The stream tells the engine's finer states from the moment it opened; before, the stored status.
  const phaseOf = (runId: string) => view.runPhases[runId] ?? view.runs.find((run) => run.run_id === runId)?.status ?? 'queued';
  const hasResults = detail?.items.some((item) => item.status === 'done' || item.status === 'failed') ?? false;

  return (
    <section className="panel run-panel campaign-panel" aria-labelledby={headingId}>
      <div className="run-head">
        <h2 id={headingId}>
          Campaign {campaignId}
          {detail && <span className="run-name"> · {detail.name}</span>}
        </h2>
        {status === 'running' && (
          <button type="button" onClick={view.cancel} disabled={view.requested === 'cancel'}>
            {view.requested === 'cancel' ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
        {status === 'cancelled' && (
          <button type="button" onClick={view.resume} disabled={view.requested === 'resume'}>
            {view.requested === 'resume' ? 'Resuming…' : 'Resume'}
          </button>
        )}
      </div>
      {detail && <p className="run-config">{describeCampaign(detail.spec)}</p>}
      {detail && typeof detail.spec.scenario === 'string' && (
        <div className="run-actions">
          <button type="button" onClick={() => onClone(detail.spec)}>
            Edit a copy in the form
          </button>
        </div>
      )}
      <StreamNotice stream={view.stream} what="campaign" id={campaignId} onReconnect={view.reconnect} />
      {view.stream !== 'not-found' &&
        view.failures.map((failure) => (
          <p key={failure} className="error" role="alert">
            {failure}
          </p>
        ))}
      {status && (
        <p className="visually-hidden" role="status">
          Campaign {campaignId}: {status}
        </p>
      )}
      {progress && (
        <div className="campaign-status">
          <span className={`status status-${status}`}>{status}</span>
          <CampaignProgressBar progress={progress} label="Campaign progress" />
        </div>
      )}
      {status === 'cancelled' && (
        <p className="notice">The campaign was cancelled: its runs were torn down. Resume runs what it has left, cancelled runs again.</p>
      )}
      {running.length > 0 && (
        <>
          <h3>Running now</h3>
          <ul className="running-runs">
            {running.map((item) => (
              <li key={item.item_index}>
                {configurationLabel(item.parameters)}, iteration {item.iteration}:{' '}
                <a href={paths.experiments.run(item.run_id as string)}>run {item.run_id}</a> ·{' '}
                {phaseLabel(phaseOf(item.run_id as string))}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="csv-links">
        <a href={campaignCsvUrl(campaignId)} download={`satlab-${campaignId}.csv`}>
          Campaign CSV
        </a>{' '}
        <span className="muted">(one row per run and flow, one column per path the matrix and the fixed overrides set)</span>
      </p>
      {detail &&
        (hasResults ? (
          <CampaignComparison
            campaignId={campaignId}
            items={detail.items}
            runs={view.runs}
            // The paths each configuration sets, as the backend expanded the matrix (an entry of arms sets several).
            parameters={Object.keys(detail.items[0]?.parameters ?? detail.spec.matrix)}
          />
        ) : (
          <p className="muted">The comparison of configurations appears as their runs finish.</p>
        ))}
    </section>
  );
}
