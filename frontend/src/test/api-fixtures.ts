/**
 * The API's shapes for tests, whole: each builder fills what a test leaves out with what the
 * backend sends for it (its defaults, as `satlab openapi` documents them; null for a figure not
 * measured), so that a fixture has every field the generated types say is there.
 */
import type {
  CampaignItem,
  CampaignSpec,
  FlowGroup,
  FlowSummary,
  LinkSampleRow,
  RunResult,
  Scenario,
  StreamEvent,
  Tunnel,
  TunnelSampleRow,
} from '../shared/runs';

type Event<Type extends StreamEvent['type']> = Extract<StreamEvent, { type: Type }>;

/** S(k,z) with the backend's defaults for the rest. */
export const tunnelOf = (fields: Pick<Tunnel, 'k' | 'z'> & Partial<Tunnel>): Tunnel => ({
  symbol_bytes: null,
  flush_ms: 10,
  protect: 'all',
  span: 'satellite',
  delivery: 'immediate',
  hold_ms: null,
  ...fields,
});

/** A flow group: one TCP CUBIC download of 1 MB unless told otherwise. */
export const flowGroupOf = (fields: Partial<FlowGroup> = {}): FlowGroup => ({
  transport: 'tcp',
  cc: 'cubic',
  hystart: false,
  size_bytes: 1_000_000,
  duration_s: null,
  count: 1,
  start_s: 0,
  direction: 'download',
  flow_control: null,
  zero_rtt: 'off',
  ...fields,
});

/** A scenario as validated and stored: geo-ideal's path, a flow group, no tunnel unless told otherwise. */
export function scenarioOf(fields: Partial<Scenario> = {}): Scenario {
  const direction = (rate_mbps: number) => ({
    rate_mbps,
    delay_ms: 250,
    frame_ms: null,
    buffer: { bytes: null, packets: null, bdp: 1.2 },
    channel: { seed: null, model: 'perfect' as const },
    aqm: null,
    delay_variation: null,
    rate_trace: null,
  });
  return {
    name: 'geo-ideal',
    description: '',
    seed: 1,
    iterations: 1,
    path: { forward: direction(12), return: direction(3), lan: null, link_backend: 'satlink', loss_rule: 'overlap' },
    tunnel: null,
    pep: null,
    flows: [flowGroupOf()],
    cross_traffic: [],
    tcp_buffer_bytes: null,
    tcp_stack: null,
    capture: { packets: false, snap_bytes: 128, qlog: true, keylog: true, max_bytes: null },
    ...fields,
  };
}

/** One flow's result: what a test gives, every other figure not measured (null). */
export const flowResultOf = (fields: Partial<FlowSummary> & Pick<FlowSummary, 'iteration' | 'flow'>): FlowSummary => ({
  group: 0,
  transport: 'tcp',
  cc: 'cubic',
  direction: 'download',
  start_s: 0,
  bytes: null,
  download_time_s: null,
  goodput_mbps: null,
  retransmissions: null,
  mean_rtt_ms: null,
  power_mbps_per_s: null,
  error: null,
  bottleneck_mbps: null,
  link_utilisation_ratio: null,
  startup_s: null,
  startup_goodput_mbps: null,
  startup_mean_rtt_ms: null,
  startup_retransmissions: null,
  steady_goodput_mbps: null,
  steady_mean_rtt_ms: null,
  steady_retransmissions: null,
  latecomer: null,
  latecomer_convergence_s: null,
  short_beside_long: null,
  time_to_first_byte_ms: null,
  pep_mode: null,
  pep_connections: null,
  pep_client_bytes: null,
  pep_client_retransmissions: null,
  pep_satellite_bytes: null,
  pep_satellite_retransmissions: null,
  pep_server_bytes: null,
  pep_server_retransmissions: null,
  pep_terminal_pipe_peak_bytes: null,
  pep_gateway_pipe_peak_bytes: null,
  ...fields,
});

/** A run's result: done, with the flows and iterations given. */
export const runResultOf = (fields: Partial<RunResult> & Pick<RunResult, 'run_id'>): RunResult => ({
  status: 'done',
  error: null,
  flows: [],
  iterations: [],
  fidelity: null,
  timed_out: null,
  artifacts: null,
  ...fields,
});

/** A link sample row: every counter not counted (null) but those given. */
export const linkSampleOf = (fields: Partial<LinkSampleRow> & Pick<LinkSampleRow, 'iteration' | 't_s' | 'direction'>): LinkSampleRow =>
  ({
    link: 'satellite',
    queue_bytes: null,
    in_flight_packets: null,
    packets_in: null,
    bytes_in: null,
    packets_out: null,
    bytes_out: null,
    drops_buffer: null,
    drops_aqm: null,
    drops_channel: null,
    drops_overflow: null,
    drops: null,
    lateness_p99_ms: null,
    lateness_max_ms: null,
    ...fields,
  });

/** A tunnel sample row: every counter not counted (null) but those given. */
export const tunnelSampleOf = (fields: Partial<TunnelSampleRow> & Pick<TunnelSampleRow, 'iteration' | 't_s' | 'direction'>): TunnelSampleRow =>
  ({
    tx_sources: null,
    tx_repairs: null,
    tx_plain: null,
    tx_flush_repairs: null,
    rx_sources: null,
    rx_repairs: null,
    rx_plain: null,
    rx_lost: null,
    rx_recovered: null,
    rx_unrecovered: null,
    rx_malformed: null,
    rx_rejected: null,
    rx_unauthenticated: null,
    rx_decoding_delay_p99_ms: null,
    rx_decoding_delay_max_ms: null,
    rx_lateness_p99_ms: null,
    rx_lateness_max_ms: null,
    ...fields,
  });

export const stateEventOf = (fields: Omit<Event<'state'>, 'type' | 'campaign_id' | 'iteration'> & Partial<Event<'state'>>): Event<'state'> => ({
  type: 'state',
  campaign_id: null,
  iteration: null,
  ...fields,
});

export const errorEventOf = (fields: Omit<Event<'error'>, 'type' | 'campaign_id'> & Partial<Event<'error'>>): Event<'error'> => ({
  type: 'error',
  campaign_id: null,
  ...fields,
});

export const summaryEventOf = (result: RunResult, campaignId: string | null = null): Event<'summary'> => ({
  type: 'summary',
  campaign_id: campaignId,
  ...result,
});

/** A campaign item, never attempted twice. */
export const campaignItemOf = (fields: Partial<CampaignItem> & Pick<CampaignItem, 'item_index' | 'configuration' | 'iteration' | 'status'>): CampaignItem => ({
  parameters: {},
  run_id: null,
  idempotency_key: null,
  attempts: [],
  ...fields,
});

/** A campaign file as stored: the backend's defaults but those given. */
export const campaignSpecOf = (fields: Partial<CampaignSpec> & Pick<CampaignSpec, 'name' | 'scenario'>): CampaignSpec => ({
  description: '',
  set: {},
  matrix: {},
  iterations: 1,
  parallel: 1,
  seed: 1,
  ...fields,
});
