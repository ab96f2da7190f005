import { useCallback, useEffect, useState } from 'react';
import { inAddress, onAddressChange, openAddress, paths } from '../../../config/paths';

/**
 * useCampaignInUrl keeps the campaign on show in the address (&view=campaigns&campaign=…; the
 * backend says when it has no such campaign); opening one adds a history entry, and Back returns
 * to the previous one.
 */
export function useCampaignInUrl(): [string | null, (campaignId: string) => void] {
  const [campaignId, setCampaignId] = useState(() => inAddress.campaign());
  useEffect(() => onAddressChange(() => setCampaignId(inAddress.campaign())), []);
  const open = useCallback((next: string) => {
    openAddress(paths.experiments.campaign(next));
    setCampaignId(next);
  }, []);
  return [campaignId, open];
}
