import { apiUrl } from '../../api';
import type { KeptFile, RunResult } from '../api/types';

/**
 * The run view's downloads: the backend's one export surface, GET api/runs/{id}/export?what=&format=
 * (`satlab export run ID --what … --format …` on the command line; backend/satlab/service/export).
 */

export type ExportWhat = 'summaries' | 'samples' | 'pcap' | 'qlog' | 'all';
export type ExportFormat = 'csv' | 'parquet';

/** runExportUrl is where the API exports what of a run; format for tables (pcap and qlog are the files kept). */
export function runExportUrl(runId: string, what: ExportWhat, format?: ExportFormat, base?: string): string {
  const query = new URLSearchParams({ what, ...(format ? { format } : {}) });
  return apiUrl(`runs/${encodeURIComponent(runId)}/export?${query}`, base);
}

const choices: { what: ExportWhat; format?: ExportFormat; label: string }[] = [
  { what: 'summaries', format: 'csv', label: 'Summary, CSV' },
  { what: 'summaries', format: 'parquet', label: 'Summary, Parquet' },
  { what: 'samples', format: 'csv', label: 'Samples, CSV (zip)' },
  { what: 'samples', format: 'parquet', label: 'Samples, Parquet (zip)' },
  { what: 'pcap', label: 'Packet captures, pcapng (zip)' },
  { what: 'qlog', label: 'qlogs, for qvis (zip)' },
  { what: 'all', format: 'csv', label: 'Everything, CSV (zip)' },
  { what: 'all', format: 'parquet', label: 'Everything, Parquet (zip)' },
];

/** The kind of kept file an export of kept files needs. */
const keptKinds: Partial<Record<ExportWhat, KeptFile['kind']>> = { pcap: 'pcapng', qlog: 'qlog' };

export interface RunExport {
  label: string;
  href: string;
  /**
   * Asked for before it is downloaded, where the API may refuse it (a run not finished yet, no such
   * file kept): its sentence is then shown, rather than a download that fails with no word why.
   */
  askFirst: boolean;
}

/** runExports lists a run's downloads: a link each, asked for first where the API may refuse it. */
export function runExports(runId: string, finished: boolean, result: RunResult | null, base?: string): RunExport[] {
  const kept = new Set<KeptFile['kind']>((result?.artifacts?.files ?? []).map((file) => file.kind));
  return choices.map(({ what, format, label }) => {
    const needs = keptKinds[what];
    return { label, href: runExportUrl(runId, what, format, base), askFirst: !finished || (needs !== undefined && !kept.has(needs)) };
  });
}

/** attachmentName is the file name a response's Content-Disposition suggests, if it does. */
export function attachmentName(contentDisposition: string | null): string | null {
  return /filename="([^"]+)"/.exec(contentDisposition ?? '')?.[1] ?? null;
}
