/**
 * Where the API is: `api/…` relative to the page, so that the console works wherever the site is
 * mounted (`satlab serve` serves the site at / and the API at /api; a proxy may put both under a
 * path). base is the document's base URL in the browser.
 */
export function apiUrl(path: string, base: string = document.baseURI): string {
  return new URL(`api/${path.replace(/^\/+/, '')}`, base).toString();
}

/** streamUrl is apiUrl for a WebSocket: ws: beside http:, wss: beside https:. */
export function streamUrl(path: string, base: string = document.baseURI): string {
  const url = new URL(apiUrl(path, base));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

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
