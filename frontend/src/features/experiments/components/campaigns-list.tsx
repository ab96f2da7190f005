import { useId } from 'react';
import { type CampaignList, CampaignProgressBar } from '../../../shared/runs';
import { paths } from '../../../config/paths';
import { formatCreated } from '../logic/format';
import { openInPlace } from './open-in-place';
import { ListHead } from './list-head';

export interface CampaignsListProps {
  /** The newest campaigns; null while they load. */
  list: CampaignList | null;
  /** Why the list did not load, if it did not. */
  error: string | null;
  /** The campaign on show, marked in the list. */
  selected: string | null;
  /** Opens a campaign in the console. */
  onOpen: (campaignId: string) => void;
  onRefresh: () => void;
}

/** CampaignsList shows the stored campaigns with their progress; each opens in the console (a link, so also in a new tab). */
export function CampaignsList({ list, error, selected, onOpen, onRefresh }: CampaignsListProps) {
  const headingId = useId();
  const open = (campaignId: string) => openInPlace(onOpen, campaignId);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <ListHead headingId={headingId} title="Campaigns" error={error} onRefresh={onRefresh} />
      {list && list.count === 0 && <p className="muted">No campaigns yet: start one with the form.</p>}
      {list && list.count > 0 && (
        <div className="table-scroll">
          <table className="results runs-table campaigns-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Name</th>
                <th scope="col">Lab</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Progress</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((campaign) => (
                <tr key={campaign.campaign_id} aria-current={campaign.campaign_id === selected || undefined}>
                  <th scope="row">
                    <a
                      href={paths.experiments.campaign(campaign.campaign_id)}
                      onClick={open(campaign.campaign_id)}
                      aria-label={`Open campaign ${campaign.campaign_id}`}
                    >
                      {campaign.campaign_id}
                    </a>
                  </th>
                  <td>{campaign.name}</td>
                  <td>{typeof campaign.spec.scenario === 'string' ? campaign.spec.scenario : 'inline scenario'}</td>
                  <td>
                    <span className={`status status-${campaign.status}`}>{campaign.status}</span>
                  </td>
                  <td>{formatCreated(campaign.created_at)}</td>
                  <td className="progress-cell">
                    <CampaignProgressBar progress={campaign.progress} label={`Progress of campaign ${campaign.campaign_id}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && list.count > list.data.length && (
        <p className="muted">
          The newest {list.data.length} of {list.count} campaigns.
        </p>
      )}
    </section>
  );
}
