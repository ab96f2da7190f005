import type { CampaignProgress } from '../api/types';
import { progressText } from '../logic/campaign-view';

export interface CampaignProgressBarProps {
  progress: CampaignProgress;
  /** The bar's accessible name. */
  label: string;
}

// Finished kinds first, then what runs now; the rest of the track is what is still to run.
const segments = ['done', 'failed', 'cancelled', 'running'] as const;

/** CampaignProgressBar shows a campaign's runs done, failed, cancelled and running out of its total, in a bar and in words. */
export function CampaignProgressBar({ progress, label }: CampaignProgressBarProps) {
  const text = progressText(progress);
  const finished = progress.done + progress.failed + progress.cancelled;
  return (
    <div className="campaign-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={finished}
        aria-valuetext={text}
      >
        {segments.map(
          (kind) =>
            progress[kind] > 0 && (
              <span key={kind} className={`progress-${kind}`} style={{ width: `${(progress[kind] / Math.max(progress.total, 1)) * 100}%` }} />
            ),
        )}
      </div>
      <span className="progress-text">{text}</span>
    </div>
  );
}
