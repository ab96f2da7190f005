import { describe, expect, it } from 'vitest';
import { STREAM_NOT_FOUND } from '../api/client';
import type { CampaignProgress, CampaignStreamEvent } from '../api/types';
import { campaignLiveReducer, initialCampaignLive, progressText } from './campaign-view';
import { runResultOf, stateEventOf, summaryEventOf } from '../../../test/api-fixtures';

const progress = (patch: Partial<CampaignProgress>): CampaignProgress => ({
  total: 4,
  pending: 0,
  running: 0,
  done: 0,
  failed: 0,
  cancelled: 0,
  ...patch,
});

describe('campaignLiveReducer', () => {
  it('follows the progress and the state of each run', () => {
    const events: CampaignStreamEvent[] = [
      { type: 'campaign', campaign_id: 'c1', status: 'running', progress: progress({ pending: 2, running: 2 }) },
      stateEventOf({ state: 'building', run_id: 'r0', campaign_id: 'c1' }),
      stateEventOf({ state: 'running', run_id: 'r0', campaign_id: 'c1', iteration: 0 }),
      stateEventOf({ state: 'building', run_id: 'r1', campaign_id: 'c1' }),
      summaryEventOf(runResultOf({ run_id: 'r0' }), 'c1'),
      { type: 'campaign', campaign_id: 'c1', status: 'running', progress: progress({ pending: 1, running: 2, done: 1 }) },
    ];
    const live = events.reduce((state, event) => campaignLiveReducer(state, { type: 'event', event }), initialCampaignLive);
    expect(live).toEqual({
      status: 'running',
      progress: progress({ pending: 1, running: 2, done: 1 }),
      runPhases: { r0: 'done', r1: 'building' },
      stream: 'open',
    });
  });

  it('tells a stream that ended with the campaign from one that was lost or never found', () => {
    const over = campaignLiveReducer(initialCampaignLive, {
      type: 'event',
      event: { type: 'campaign', campaign_id: 'c1', status: 'cancelled', progress: progress({ cancelled: 4 }) },
    });
    expect(campaignLiveReducer(over, { type: 'closed', code: 1000 }).stream).toBe('ended');
    expect(campaignLiveReducer(initialCampaignLive, { type: 'closed', code: 1006 }).stream).toBe('lost');
    expect(campaignLiveReducer(initialCampaignLive, { type: 'closed', code: STREAM_NOT_FOUND }).stream).toBe('not-found');
  });
});

describe('progressText', () => {
  it('counts finished runs, then each kind', () => {
    expect(progressText(progress({ pending: 1, running: 1, done: 1, failed: 1 }))).toBe('2/4 runs finished: 1 done, 1 failed, 1 running');
    expect(progressText(progress({ done: 2, cancelled: 2 }))).toBe('4/4 runs finished: 2 done, 0 failed, 0 running, 2 cancelled');
  });
});
