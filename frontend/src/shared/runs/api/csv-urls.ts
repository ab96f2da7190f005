import { apiUrl } from '../../api';

export const csvKinds = [
  { kind: 'summary', label: 'Summary', what: 'one row per flow: download time, goodput, FEC and link counters' },
  { kind: 'flow-samples', label: 'Flow samples', what: 'goodput, cwnd, RTT of each flow, ten a second' },
  { kind: 'link-samples', label: 'Link samples', what: 'queue and drop counters of each link direction' },
  { kind: 'tunnel-samples', label: 'Tunnel samples', what: 'FEC counters of each tunnel direction' },
] as const;

export type CsvKind = (typeof csvKinds)[number]['kind'];

/** csvUrl is where the API exports one kind of a run's CSV. */
export function csvUrl(runId: string, kind: CsvKind, base?: string): string {
  return apiUrl(`runs/${encodeURIComponent(runId)}/csv/${kind}`, base);
}

/** campaignCsvUrl is where the API exports a campaign: one row per run and flow, one column per matrix parameter. */
export function campaignCsvUrl(campaignId: string, base?: string): string {
  return apiUrl(`campaigns/${encodeURIComponent(campaignId)}/csv`, base);
}
