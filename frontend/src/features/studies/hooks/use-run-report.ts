import { useCallback, useEffect, useState } from 'react';
import { retryDelayMs, useBurstRefresh, useCampaignLive } from '../../../shared/runs';
import { getStudyReport } from '../api/client';
import type { StudyReport } from '../api/types';

const REFRESH_DELAY_MS = 500;

/**
 * useStudyReport is the report of some study runs (GET api/studies/{id}/report?campaign=…; none:
 * every full run), asked for again whenever version changes.
 */
export function useStudyReport(studyId: string, campaignIds: string[], version = 0) {
  const [report, setReport] = useState<StudyReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const campaigns = campaignIds.join(',');
  useEffect(() => {
    let current = true;
    getStudyReport(studyId, campaigns ? campaigns.split(',') : []).then(
      (loaded) => {
        if (!current) return;
        setReport(loaded);
        setFailure(null);
      },
      (error: Error) => current && setFailure(`The report did not load: ${error.message}`),
    );
    return () => {
      current = false;
    };
  }, [studyId, campaigns, version]);
  return { report, failure };
}

/**
 * useRunReport is the live report of one study run: a study run is a campaign, so its stream
 * (WS api/campaigns/{id}/stream) gives its status and progress, and after each change the report
 * is asked for again, until the run is over. A stream that closes before the run is over is opened
 * again after a growing delay (the backend's first message on it is the campaign's progress);
 * `reconnecting` says when the progress shown is the last one heard.
 */
export function useRunReport(studyId: string, campaignId: string) {
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  const scheduleRefresh = useBurstRefresh(refresh, REFRESH_DELAY_MS);
  const [connection, setConnection] = useState(0);
  // Attempts since the stream was last open: each waits longer (retryDelayMs).
  const [attempts, setAttempts] = useState(0);
  const live = useCampaignLive(campaignId, scheduleRefresh, connection);
  const reconnecting = live.stream === 'lost';
  useEffect(() => {
    if (live.stream === 'open') setAttempts(0);
  }, [live.stream]);
  useEffect(() => {
    if (!reconnecting) return;
    const timer = window.setTimeout(() => {
      setAttempts((count) => count + 1);
      setConnection((count) => count + 1);
    }, retryDelayMs(attempts));
    return () => window.clearTimeout(timer);
  }, [reconnecting, attempts]);
  const { report, failure } = useStudyReport(studyId, [campaignId], version);

  const stored = report?.campaigns.find((campaign) => campaign.campaign_id === campaignId);
  return {
    report,
    failure,
    status: live.status ?? stored?.status ?? null,
    progress: live.progress ?? stored?.progress ?? null,
    reconnecting,
  };
}
