import type { Limits } from '../api/limits';
import { useState } from 'react';
import type { CampaignDetail, CampaignSpec, Capabilities, Lab } from '../../../shared/runs';
import type { Session } from '../../../shared/session';
import { useCampaignInUrl } from '../hooks/use-campaign-in-url';
import { useCampaigns } from '../hooks/use-campaigns';
import { CampaignForm } from './campaign-form';
import { CampaignPanel } from './campaign-panel';
import { CampaignsList } from './campaigns-list';

export interface CampaignsSectionProps {
  capabilities: Capabilities;
  labs: Lab[];
  limits: Limits;
  /** Who this browser is and the server's limits, once known. */
  session?: Session;
}

/** CampaignsSection is the console's campaigns: the form to start one, the one on show, and the stored ones. */
export function CampaignsSection({ capabilities, labs, limits, session }: CampaignsSectionProps) {
  const [campaignId, openCampaign] = useCampaignInUrl();
  const campaigns = useCampaigns();
  // A stored campaign loaded into the form: a new form (key) starts from its file.
  const [clone, setClone] = useState<{ version: number; spec: CampaignSpec } | null>(null);
  const started = (campaign: CampaignDetail) => {
    openCampaign(campaign.campaign_id);
    campaigns.refresh();
  };
  return (
    <div className="lab">
      <CampaignForm
        key={clone?.version ?? 0}
        capabilities={capabilities}
        labs={labs}
        limits={limits}
        clone={clone?.spec}
        onStarted={started}
        session={session}
      />
      <div className="lab-stage">
        {campaignId ? (
          <CampaignPanel
            key={campaignId}
            campaignId={campaignId}
            onClone={(spec) => setClone((current) => ({ version: (current?.version ?? 0) + 1, spec }))}
          />
        ) : (
          <p className="panel muted">
            A campaign runs every combination of the matrix&apos;s values, each several times, and compares the configurations. Start one
            with the form, or open a stored one from the list below.
          </p>
        )}
        <CampaignsList
          list={campaigns.list}
          error={campaigns.error}
          selected={campaignId}
          onOpen={openCampaign}
          onRefresh={campaigns.refresh}
        />
      </div>
    </div>
  );
}
