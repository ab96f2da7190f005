import { postJson, request, type Schemas, streamUrl } from '../../api';
import type { QueuePlace } from '../logic/queue-place';
import type {
  CampaignDetail,
  CampaignList,
  CampaignRequest,
  Capabilities,
  LabDetail,
  Run,
  RunList,
  RunFrom,
  RunListItem,
  RunSamples,
  StreamEvent,
} from './types';

export const getCapabilities = () => request<Capabilities>('capabilities');
export const getLabs = () => request<Schemas['LabsPublic']>('labs');
export const getLab = (name: string) => request<LabDetail>(`labs/${encodeURIComponent(name)}`);
export const getRun = (runId: string) => request<Run>(`runs/${encodeURIComponent(runId)}`);
export const getSamples = (runId: string) => request<RunSamples>(`runs/${encodeURIComponent(runId)}/samples`);
export const listRuns = (limit: number, offset: number) => request<RunList>(`runs?limit=${limit}&offset=${offset}`);

/**
 * createRun queues a run of a lab with dotted.path=value overrides, from the page that asks (the run
 * records it as where it came from); a 422 ApiError names each bad field.
 */
export const createRun = (lab: string, overrides: string[], from: RunFrom) =>
  request<Run>('runs', postJson({ lab, set: overrides, ...from }));

/** shareRun shows a run to the whole class, or (shared false) no longer: the instructor's. */
export const shareRun = (runId: string, shared: boolean) =>
  request<Schemas['Message']>(`runs/${encodeURIComponent(runId)}/share?shared=${String(shared)}`, postJson());

/** deleteRun deletes a finished run with everything it stored: the instructor's. */
export const deleteRun = (runId: string) => request<Schemas['Message']>(`runs/${encodeURIComponent(runId)}`, { method: 'DELETE' });

/** getQueuePlace gives a queued run's place in line and about when it starts. */
export const getQueuePlace = (runId: string) => request<QueuePlace>(`runs/${encodeURIComponent(runId)}/queue`);

export const cancelRun = (runId: string) => request<Schemas['Message']>(`runs/${encodeURIComponent(runId)}/cancel`, postJson());

export const listCampaigns = () => request<CampaignList>('campaigns');
export const getCampaign = (campaignId: string) => request<CampaignDetail>(`campaigns/${encodeURIComponent(campaignId)}`);

/** createCampaign starts a campaign; a 422 ApiError names each bad field or configuration, and nothing is created. */
export const createCampaign = (spec: CampaignRequest) => request<CampaignDetail>('campaigns', postJson(spec));

export const cancelCampaign = (campaignId: string) =>
  request<Schemas['Message']>(`campaigns/${encodeURIComponent(campaignId)}/cancel`, postJson());
export const resumeCampaign = (campaignId: string) =>
  request<Schemas['Message']>(`campaigns/${encodeURIComponent(campaignId)}/resume`, postJson());

/** The most runs GET api/runs gives at once. */
const RUNS_PER_REQUEST = 1000;

/** listCampaignRuns fetches every run of a campaign with its per-flow summaries, a page at a time. */
export async function listCampaignRuns(campaignId: string): Promise<RunListItem[]> {
  const runs: RunListItem[] = [];
  for (;;) {
    const page = await request<RunList>(
      `runs?campaign_id=${encodeURIComponent(campaignId)}&limit=${RUNS_PER_REQUEST}&offset=${runs.length}`,
    );
    runs.push(...page.data);
    if (page.data.length === 0 || runs.length >= page.count) return runs;
  }
}

/** Close code of a stream for a run or campaign the backend does not know. */
export const STREAM_NOT_FOUND = 4404;

/**
 * openStream opens a WebSocket of the API (`runs/{id}/stream`, `events`) and hands over each JSON
 * message; onClose gets the close code once it ends, whoever ended it (but the closer), onOpen is
 * called if the backend accepted it. Returns the closer.
 */
export function openStream<Event = StreamEvent>(
  path: string,
  onEvent: (event: Event) => void,
  onClose: (code: number, reason: string) => void,
  onOpen: () => void = () => {},
): () => void {
  const socket = new WebSocket(streamUrl(path));
  let closedHere = false;
  socket.onopen = onOpen;
  socket.onmessage = (message) => onEvent(JSON.parse(String(message.data)) as Event);
  socket.onclose = (close) => {
    if (!closedHere) onClose(close.code, close.reason);
  };
  return () => {
    closedHere = true;
    socket.close();
  };
}
