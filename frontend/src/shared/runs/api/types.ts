/**
 * The satlab backend's HTTP API as the run and campaign pages use it: the generated schemas
 * (src/shared/api/schema.d.ts, from the backend's OpenAPI document) under the names the pages
 * use. Nothing here is typed by hand.
 */
import type { Schemas } from '../../api';

export type RunStatus = Schemas['RunStatus'];

export const finishedStatuses: readonly RunStatus[] = ['done', 'failed', 'cancelled'];

export type TransportCapability = Schemas['TransportCapability'];
/** GET api/capabilities: what this host can run. */
export type Capabilities = Schemas['Capabilities'];
/** One preset of labs/, as GET api/labs lists it. */
export type Lab = Schemas['LabPublic'];

export type FlowGroup = Schemas['FlowGroup'];
export type Tunnel = Schemas['Tunnel'];
/** A validated scenario as stored and served, every default filled in. */
export type Scenario = Schemas['Scenario'];

/** GET api/labs/{name}: the preset as written and as validated. */
export type LabDetail = Schemas['LabDetail'];

/** One flow of one iteration, once the run is over. */
export type FlowSummary = Schemas['FlowResult'];
/** One flow of one iteration as GET api/runs lists it: the main figures, the transport's own in details. */
export type FlowListRow = Schemas['FlowSummaryRow'];
/** A flow's figures, from a run's result or from the runs' list. */
export type FlowFigures = FlowSummary | FlowListRow;
/** One direction of the FEC tunnel, counted at its receiving endpoint. */
export type FecSummary = Schemas['FecDirection'];
export type IterationResult = Schemas['IterationResult'];
/** A file a run kept for the researcher: a qlog, a TLS key log, a packet capture. */
export type KeptFile = Schemas['KeptFile'];
/** The files a run kept, within its cap on their bytes. */
export type RunArtifacts = Schemas['RunArtifacts'];
/** The engine's result: the run's "result", and the stream's last event. */
export type RunResult = Schemas['RunResult'];
/** Whether the host kept up with a run (its tools' lateness, load, steal), and who measured. */
export type RunFidelity = Schemas['RunFidelity'];
/** The iteration a run's time limit stopped, and what each of its flows had taken by then. */
export type TimedOut = Schemas['TimedOut'];

/** A run as GET api/runs lists it. */
export type RunListItem = Schemas['RunSummary'];
/** Who queued a run: its id as runs record it, and its name as a person reads it. */
export type RunOwner = Schemas['RunOwner'];
/** Where a run came from: a page or tool (recorded when it was queued), or its campaign or study; with the preset it ran. */
export type RunOrigin = Schemas['RunOrigin'];
/** The page that queues a run (POST api/runs: page, and a lab sheet's id with page sheet), which the run records as its origin. */
export type RunFrom = Pick<Schemas['RunCreate'], 'page' | 'sheet'>;
/** GET api/runs/{id}, POST api/runs. */
export type Run = Schemas['RunPublic'];
export type RunList = Schemas['RunsPublic'];

/** A flow's sample, as stored (GET api/runs/{id}/samples). */
export type FlowSampleRow = Schemas['FlowSampleRow'];
export type LinkSampleRow = Schemas['LinkSampleRow'];
/** Cumulative counters of one direction of the link (netem fills only some; its drops only in `drops`). */
export type LinkCounters = Omit<LinkSampleRow, 'iteration' | 't_s' | 'link' | 'direction'>;
export type TunnelSampleRow = Schemas['TunnelSampleRow'];
/** A flow split by PEPs: bytes and retransmissions per segment, what each PEP holds. */
export type PepSampleRow = Schemas['PepSampleRow'];
export type RunSamples = Schemas['SampleRows'];
/** A sample event, ten a second while the flows run: the store's rows, so a run looks the same live and stored. */
export type SampleEvent = Schemas['SampleEvent'];

/** What WS api/runs/{id}/stream sends: the run first, then the engine's events until the summary. */
export type StreamEvent = Schemas['RunStreamEvent'];

/** One entry of a 422 answer's detail (FastAPI's shape). */
export type { ProblemDetail } from '../../api';

export type CampaignStatus = Schemas['CampaignPublic']['status'];
export type CampaignItemStatus = Schemas['CampaignItemDetailRow']['status'];
/** A campaign's items counted by status. */
export type CampaignProgress = Schemas['CampaignProgress'];
/** A campaign file as validated and stored (GET api/campaigns: each one's spec). */
export type CampaignSpec = Schemas['CampaignSpec'];
/** The body of POST api/campaigns: a campaign file, a defaulted field left out takes its default. */
export type CampaignRequest = Pick<CampaignSpec, 'name' | 'scenario'> & Partial<Omit<CampaignSpec, 'name' | 'scenario'>>;
/** A campaign as GET api/campaigns lists it. */
export type Campaign = Schemas['CampaignPublic'];
/** One run of a campaign: a configuration (matrix values) in one iteration. */
export type CampaignItem = Schemas['CampaignItemDetailRow'];
/** GET api/campaigns/{id}, POST api/campaigns. */
export type CampaignDetail = Schemas['CampaignDetail'];
export type CampaignList = Schemas['CampaignsPublic'];
/** What WS api/campaigns/{id}/stream sends: the progress first and after each change, and its runs' events, until it is over. */
export type CampaignStreamEvent = Schemas['CampaignStreamEvent'];
