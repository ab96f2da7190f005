import { listCampaigns } from '../../../shared/runs';
import { useLiveList } from './use-live-list';

const campaignChanged = (event: { type: string }) => event.type === 'campaign';

/**
 * useCampaigns lists the stored campaigns, newest first (the API gives the latest 100), and
 * refreshes the list whenever any campaign progresses (WS api/events), whoever started it.
 */
export function useCampaigns() {
  return useLiveList(listCampaigns, 'campaigns', campaignChanged);
}
