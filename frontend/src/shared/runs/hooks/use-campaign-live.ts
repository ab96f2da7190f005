import { useEffect, useReducer } from 'react';
import { openStream } from '../api/client';
import type { CampaignStreamEvent } from '../api/types';
import { type CampaignLive, campaignLiveReducer, initialCampaignLive } from '../logic/campaign-view';

/**
 * useCampaignLive follows a campaign's stream: its status, progress and runs' phases as they
 * change. onProgress is called on each change of progress and when the stream ends (then what
 * is stored is the truth). A new reopen value opens the stream again (the backend came back).
 */
export function useCampaignLive(campaignId: string, onProgress: () => void, reopen: string | number = 0): CampaignLive {
  const [live, dispatch] = useReducer(campaignLiveReducer, initialCampaignLive);
  useEffect(
    () =>
      openStream<CampaignStreamEvent>(
        `campaigns/${encodeURIComponent(campaignId)}/stream`,
        (event) => {
          dispatch({ type: 'event', event });
          if (event.type === 'campaign') onProgress();
        },
        (code) => {
          dispatch({ type: 'closed', code });
          onProgress();
        },
      ),
    [campaignId, onProgress, reopen],
  );
  return live;
}
