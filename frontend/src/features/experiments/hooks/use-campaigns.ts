import { useCallback, useEffect, useState } from 'react';
import { listCampaigns, openStream } from '../api/client';
import type { CampaignList } from '../api/types';
import { useBurstRefresh } from './use-burst-refresh';

/**
 * useCampaigns lists the stored campaigns, newest first (the API gives the latest 100), and
 * refreshes the list whenever any campaign progresses (WS api/events), whoever started it.
 */
export function useCampaigns() {
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<CampaignList | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  const scheduleRefresh = useBurstRefresh(refresh);

  useEffect(() => {
    let current = true;
    listCampaigns().then(
      (campaigns) => {
        if (!current) return;
        setList(campaigns);
        setError(null);
      },
      (failure: Error) => current && setError(`The list of campaigns did not load: ${failure.message}`),
    );
    return () => {
      current = false;
    };
  }, [version]);

  useEffect(
    () =>
      openStream<{ type: string }>(
        'events',
        (event) => event.type === 'campaign' && scheduleRefresh(),
        () => {},
      ),
    [scheduleRefresh],
  );

  return { list, error, refresh };
}
