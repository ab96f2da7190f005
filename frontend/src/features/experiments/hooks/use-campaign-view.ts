import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../shared/api';
import { cancelCampaign, getCampaign, listCampaignRuns, resumeCampaign, type CampaignDetail, type RunListItem, useBackendConnection, whenUnreachable, useBurstRefresh, useCampaignLive } from '../../../shared/runs';

const REFRESH_DELAY_MS = 300;

/**
 * useCampaignView follows one campaign: its stream for live progress and its runs' states, and,
 * after each change of progress, its items (GET api/campaigns/{id}) and runs with their summaries
 * (GET api/runs?campaign_id=…), for the results. Cancel and resume are requests; the stream says
 * when they took effect (a resumed campaign gets a new stream: the old one ended with it).
 */
export function useCampaignView(campaignId: string) {
  const { generation, reportLost } = useBackendConnection();
  const [stored, setStored] = useState<{ detail: CampaignDetail; runs: RunListItem[] } | null>(null);
  // Why the campaign did not load (until it loads again), and why the latest cancel or resume failed.
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [actionFailure, setActionFailure] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState(0);
  const [requested, setRequested] = useState<'cancel' | 'resume' | null>(null);

  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  const scheduleRefresh = useBurstRefresh(refresh, REFRESH_DELAY_MS);
  const live = useCampaignLive(campaignId, scheduleRefresh, `${connection}/${generation}`);

  useEffect(() => {
    let current = true;
    Promise.all([getCampaign(campaignId), listCampaignRuns(campaignId)]).then(
      ([detail, runs]) => {
        if (!current) return;
        setStored({ detail, runs });
        setLoadFailure(null);
      },
      (error: Error) => {
        // A campaign the backend does not have: the stream's notice says so.
        if (!current || whenUnreachable(error, reportLost) || (error instanceof ApiError && error.status === 404)) return;
        setLoadFailure(`The campaign did not load: ${error.message}`);
      },
    );
    return () => {
      current = false;
    };
  }, [campaignId, version, generation, reportLost]);

  // What failed while the backend was away is stale once it is back.
  useEffect(() => setActionFailure(null), [generation]);

  const status = live.status ?? stored?.detail.status ?? null;
  // A request is under way until the campaign's status changes (cancelling waits for its runs to tear down).
  useEffect(() => setRequested(null), [status]);

  const cancel = useCallback(() => {
    setRequested('cancel');
    setActionFailure(null);
    cancelCampaign(campaignId).catch((error: Error) => {
      setRequested(null);
      if (!whenUnreachable(error, reportLost)) setActionFailure(`The campaign was not cancelled: ${error.message}`);
    });
  }, [campaignId, reportLost]);

  const resume = useCallback(() => {
    setRequested('resume');
    setActionFailure(null);
    resumeCampaign(campaignId).then(
      () => setConnection((count) => count + 1),
      (error: Error) => {
        setRequested(null);
        if (!whenUnreachable(error, reportLost)) setActionFailure(`The campaign was not resumed: ${error.message}`);
      },
    );
  }, [campaignId, reportLost]);

  const reconnect = useCallback(() => setConnection((count) => count + 1), []);

  return {
    detail: stored?.detail ?? null,
    runs: stored?.runs ?? [],
    status,
    progress: live.progress ?? stored?.detail.progress ?? null,
    runPhases: live.runPhases,
    stream: live.stream,
    failures: [loadFailure, actionFailure].filter((failure): failure is string => failure !== null),
    requested,
    cancel,
    resume,
    reconnect,
  };
}
