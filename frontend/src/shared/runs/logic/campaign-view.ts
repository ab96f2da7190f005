import { STREAM_NOT_FOUND } from '../api/client';
import type { CampaignProgress, CampaignStatus, CampaignStreamEvent } from '../api/types';
import type { Phase, StreamState } from './run-view';

/**
 * What the campaign's stream (WS api/campaigns/{id}/stream) tells live: its status and progress,
 * and the state each of its runs is in; a pure reducer, like a run's view.
 */
export interface CampaignLive {
  status: CampaignStatus | null;
  progress: CampaignProgress | null;
  /** The latest state of each run of the campaign, by run id. */
  runPhases: Record<string, Phase>;
  stream: StreamState;
}

export type CampaignLiveAction = { type: 'event'; event: CampaignStreamEvent } | { type: 'closed'; code: number };

export const initialCampaignLive: CampaignLive = { status: null, progress: null, runPhases: {}, stream: 'connecting' };

export function campaignLiveReducer(live: CampaignLive, action: CampaignLiveAction): CampaignLive {
  if (action.type === 'closed') {
    const stream = action.code === STREAM_NOT_FOUND ? 'not-found' : live.status !== null && live.status !== 'running' ? 'ended' : 'lost';
    return { ...live, stream };
  }
  const { event } = action;
  const opened = { ...live, stream: 'open' as const };
  switch (event.type) {
    case 'campaign':
      return { ...opened, status: event.status, progress: event.progress };
    case 'state':
      return { ...opened, runPhases: { ...live.runPhases, [event.run_id]: event.state as Phase } };
    case 'summary':
      return { ...opened, runPhases: { ...live.runPhases, [event.run_id]: event.status } };
    case 'error':
      // The run's error is stored with it, and listed with the failed runs.
      return opened;
  }
}

/** progressText says how far a campaign is, in words: "3/4 runs finished: 2 done, 1 failed, 1 running". */
export function progressText({ total, done, failed, running, cancelled }: CampaignProgress): string {
  const cancelledText = cancelled > 0 ? `, ${cancelled} cancelled` : '';
  return `${done + failed + cancelled}/${total} runs finished: ${done} done, ${failed} failed, ${running} running${cancelledText}`;
}
