import { apiUrl, type Schemas } from '../../api';

/** A table of one run the API exports as CSV (the backend's export.RUN_TABLE_WRITERS). */
export type CsvKind = Schemas['RunTable'];

/** Each kind's name and contents, in the order the summary lists them: a kind the backend adds fails the type check until it is described here. */
const described: Record<CsvKind, { label: string; what: string }> = {
  summary: { label: 'Summary', what: 'one row per flow: download time, goodput, FEC and link counters' },
  'flow-samples': { label: 'Flow samples', what: 'goodput, cwnd, RTT of each flow and hop, ten a second' },
  'link-samples': { label: 'Link samples', what: 'queue and drop counters of each link direction' },
  'tunnel-samples': { label: 'Tunnel samples', what: 'FEC counters of each tunnel direction' },
  'pep-samples': { label: 'PEP samples', what: 'bytes and retransmissions of each segment of a split flow, and what each PEP buffers, ten a second' },
};

export const csvKinds = (Object.keys(described) as CsvKind[]).map((kind) => ({ kind, ...described[kind] }));

/** csvUrl is where the API exports one kind of a run's CSV. */
export function csvUrl(runId: string, kind: CsvKind, base?: string): string {
  return apiUrl(`runs/${encodeURIComponent(runId)}/csv/${kind}`, base);
}

/** campaignCsvUrl is where the API exports a campaign: one row per run and flow, one column per matrix parameter. */
export function campaignCsvUrl(campaignId: string, base?: string): string {
  return apiUrl(`campaigns/${encodeURIComponent(campaignId)}/csv`, base);
}
