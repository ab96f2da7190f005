/**
 * The satlab backend's HTTP API, as the console uses it (backend/satlab/api: models.py, routes/;
 * the engine's events: backend/satlab/engine/runner.py; the stored samples:
 * backend/satlab/service/store.py). Field names are the API's.
 */

export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export const finishedStatuses: readonly RunStatus[] = ['done', 'failed', 'cancelled'];

export interface TransportCapability {
  name: string;
  display_name: string;
  colour: string;
  available: boolean;
  /** Why the transport cannot run here, when it cannot. */
  problem: string | null;
  congestion_controls: string[];
  uploads: boolean;
  durations: boolean;
}

/** GET api/capabilities: what this host can run. */
export interface Capabilities {
  root: boolean;
  kernel: string;
  link_backends: { name: string; available: boolean; problem: string | null }[];
  fec_tunnel: boolean;
  cubic_hystart_parameter: boolean;
  transports: TransportCapability[];
  channel_models: string[];
  max_concurrent_runs: number;
}

/** One preset of labs/, as GET api/labs lists it. */
export interface Lab {
  name: string;
  title: string;
  description: string;
  /** Why the preset does not load, if it does not. */
  error: string | null;
}

export interface FlowGroup {
  transport: string;
  cc: string;
  hystart: boolean | null;
  size_bytes: number | null;
  duration_s: number | null;
  count: number;
  start_s: number;
  direction: 'download' | 'upload';
}

export interface Tunnel {
  k: number;
  z: number;
}

/** A validated scenario (only the parts the console reads are typed). */
export interface Scenario {
  name: string;
  description: string;
  iterations: number;
  tunnel: Tunnel | null;
  flows: FlowGroup[];
  [field: string]: unknown;
}

/** GET api/labs/{name}: the preset as written and as validated. */
export interface LabDetail extends Lab {
  scenario: Scenario | null;
  text: string;
}

/** One flow of one iteration, once the run is over. */
export interface FlowSummary {
  iteration: number;
  flow: number;
  group: number | null;
  transport: string | null;
  cc: string | null;
  direction: string | null;
  start_s: number | null;
  bytes: number | null;
  download_time_s: number | null;
  goodput_mbps: number | null;
  retransmissions: number | null;
  mean_rtt_ms: number | null;
  power_mbps_per_s: number | null;
  /**
   * Start-up vs steady state, utilisation, latecomers, mice (backend/README.md, "Start-up, steady
   * state, latecomers"); absent from runs summarised before they existed.
   */
  bottleneck_mbps?: number | null;
  link_utilisation_ratio?: number | null;
  /** Null: the flow never reached 90 % of the bottleneck (all start-up). */
  startup_s?: number | null;
  startup_goodput_mbps?: number | null;
  startup_mean_rtt_ms?: number | null;
  startup_retransmissions?: number | null;
  steady_goodput_mbps?: number | null;
  steady_mean_rtt_ms?: number | null;
  steady_retransmissions?: number | null;
  latecomer?: boolean;
  /** Null for a latecomer: it never converged. */
  latecomer_convergence_s?: number | null;
  short_beside_long?: boolean;
  /** A download's first packet to its first byte of data (picoquic; TCP on the client's wire). */
  time_to_first_byte_ms?: number | null;
  /**
   * Through a split-TCP PEP (backend/satlab/engine/pep/metrics.py): each segment's sender's bytes and
   * retransmissions (client, satellite, server; no client segment with a gateway PEP alone), and
   * the bytes each PEP's pipe of the data's direction held at most.
   */
  pep_mode?: 'gateway' | 'distributed';
  pep_connections?: number;
  pep_client_bytes?: number | null;
  pep_client_retransmissions?: number | null;
  pep_satellite_bytes?: number | null;
  pep_satellite_retransmissions?: number | null;
  pep_server_bytes?: number | null;
  pep_server_retransmissions?: number | null;
  pep_terminal_pipe_peak_bytes?: number | null;
  pep_gateway_pipe_peak_bytes?: number | null;
  error: string | null;
}

/** One direction of the FEC tunnel, counted at its receiving endpoint. */
export interface FecSummary {
  sources: number;
  repairs: number;
  lost: number;
  recovered: number;
  /** (lost − recovered) / (sources + lost). */
  residual_loss: number;
}

export interface IterationResult {
  iteration: number;
  flows: FlowSummary[];
  jain_index: number | null;
  fec: { forward: FecSummary | null; return: FecSummary | null } | null;
}

/** The engine's result: the run's "result", and the stream's last event. */
/** A file a run kept for the researcher: a qlog, a TLS key log, a packet capture. */
export interface KeptFile {
  /** Its path in the run's directory: iteration0/flow0/client.qlog.gz. */
  name: string;
  kind: 'qlog' | 'keylog' | 'pcapng';
  /** As kept (compressed). */
  size_bytes: number;
  sha256: string;
}

/** The files a run kept, within its cap on their bytes. */
export interface RunArtifacts {
  max_bytes: number;
  used_bytes: number;
  files: KeptFile[];
  /** Why each file past the cap was not kept. */
  refused: string[];
}

export interface RunResult {
  run_id: string;
  status: RunStatus;
  error: string | null;
  flows: FlowSummary[];
  iterations: IterationResult[];
  /** The files it kept; absent or null when its scenario kept none. */
  artifacts?: RunArtifacts | null;
}

interface RunBase {
  run_id: string;
  /** The scenario's name (the lab's, for a lab). */
  name: string;
  status: RunStatus;
  error: string | null;
  campaign_id: string | null;
  item_index: number | null;
  /** Unix time, seconds. */
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A run as GET api/runs lists it. */
export interface RunListItem extends RunBase {
  flows: FlowSummary[];
}

/** GET api/runs/{id}, POST api/runs. */
export interface Run extends RunBase {
  scenario: Scenario;
  provenance: Record<string, unknown>;
  result: RunResult | null;
}

export interface RunList {
  data: RunListItem[];
  count: number;
}

/** A flow's sample, as stored (GET api/runs/{id}/samples). */
export interface FlowSampleRow {
  iteration: number;
  t_s: number;
  flow: number;
  bytes_acked: number | null;
  goodput_mbps: number | null;
  cwnd_bytes: number | null;
  rtt_ms: number | null;
  retransmissions: number | null;
  delivery_rate_mbps: number | null;
}

/** Cumulative counters of one direction of the link (netem fills only some; its drops only in `drops`). */
export interface LinkCounters {
  queue_bytes: number | null;
  in_flight_packets: number | null;
  packets_in: number | null;
  bytes_in: number | null;
  packets_out: number | null;
  bytes_out: number | null;
  drops_buffer: number | null;
  drops_channel: number | null;
  drops_overflow: number | null;
  /** Every drop, whatever the cause. */
  drops: number | null;
}

export interface LinkSampleRow extends LinkCounters {
  iteration: number;
  t_s: number;
  link: 'satellite' | 'lan';
  direction: 'forward' | 'return' | 'down' | 'up';
}

/** Cumulative counters of one direction of the FEC tunnel: tx of its sender, rx of its receiver. */
export interface TunnelSampleRow {
  iteration: number;
  t_s: number;
  direction: 'forward' | 'return';
  tx_sources: number | null;
  tx_repairs: number | null;
  rx_sources: number | null;
  rx_repairs: number | null;
  rx_lost: number | null;
  rx_recovered: number | null;
  rx_unrecovered: number | null;
}

export interface RunSamples {
  flows: FlowSampleRow[];
  links: LinkSampleRow[];
  tunnel: TunnelSampleRow[];
}

/**
 * A sample event, ten a second while the flows run: the same rows the store keeps
 * (GET api/runs/{id}/samples), so a run looks the same live and stored.
 */
export interface SampleEvent extends RunSamples {
  type: 'sample';
  run_id: string;
  iteration: number;
  /** Seconds since the iteration's first flow could start. */
  t_s: number;
}

/** What WS api/runs/{id}/stream sends: the run first, then the engine's events until the summary. */
export type StreamEvent =
  | { type: 'run'; run: Run }
  | { type: 'state'; state: string; run_id: string; iteration?: number }
  | SampleEvent
  | { type: 'error'; run_id: string; message: string }
  | ({ type: 'summary' } & RunResult);

/** One entry of a 422 answer's detail (FastAPI's shape). */
export type { ProblemDetail } from '../../api';

export type CampaignStatus = 'running' | 'done' | 'cancelled';

export type CampaignItemStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** A campaign's items counted by status. */
export interface CampaignProgress {
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
}

/**
 * A campaign as written (the body of POST api/campaigns, as a campaign file): a base scenario,
 * fixed overrides, a matrix of dotted path → values (its Cartesian product), iterations.
 */
export interface CampaignSpec {
  name: string;
  description?: string;
  /** A lab's name, or a whole scenario. */
  scenario: string | Record<string, unknown>;
  /** Fixed overrides: dotted path → value. */
  set: Record<string, unknown>;
  matrix: Record<string, unknown[]>;
  iterations: number;
  /** Runs at once. */
  parallel: number;
  seed: number;
}

/** A campaign as GET api/campaigns lists it. */
export interface Campaign {
  campaign_id: string;
  name: string;
  status: CampaignStatus;
  spec: CampaignSpec;
  /** Unix time, seconds. */
  created_at: number;
  finished_at: number | null;
  progress: CampaignProgress;
}

/** One run of a campaign: a configuration (matrix values) in one iteration. */
export interface CampaignItem {
  item_index: number;
  /** Index into the matrix's Cartesian product, in key order. */
  configuration: number;
  iteration: number;
  /** Matrix path → this configuration's value. */
  parameters: Record<string, unknown>;
  status: CampaignItemStatus;
  /** Its run, once started (a resumed item gets a new one). */
  run_id: string | null;
}

/** GET api/campaigns/{id}, POST api/campaigns. */
export interface CampaignDetail extends Campaign {
  items: CampaignItem[];
}

export interface CampaignList {
  data: Campaign[];
  count: number;
}

/** What WS api/campaigns/{id}/stream sends: the progress first and after each change, and its runs' events, until it is over. */
export type CampaignStreamEvent =
  | { type: 'campaign'; campaign_id: string; status: CampaignStatus; progress: CampaignProgress }
  | { type: 'state'; state: string; run_id: string; campaign_id: string; iteration?: number }
  | { type: 'error'; run_id: string; campaign_id: string; message: string }
  | ({ type: 'summary'; campaign_id: string } & RunResult);
