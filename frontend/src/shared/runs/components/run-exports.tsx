import { type MouseEvent, useState } from 'react';
import { DownloadMenu, saveFile } from '../../../components/charts';
import { ApiError, BackendUnreachableError } from '../../api';
import type { RunResult } from '../api/types';
import { attachmentName, type RunExport, runExports } from '../logic/run-exports';

export interface RunExportsProps {
  runId: string;
  /** Whether the run is over (done, failed, cancelled): only then does the API export it. */
  finished: boolean;
  /** Its result, which lists the files it kept. */
  result: RunResult | null;
}

/**
 * RunExports is the run's Download menu of the backend's exports: summary, samples, packet
 * captures, qlogs, everything, as CSV or Parquet. Each is a plain link to the API; one the API may
 * refuse (the run is not over, it kept no such file) is asked for first, and the API's sentence
 * shows instead of a download that fails without a word.
 */
export function RunExports({ runId, finished, result }: RunExportsProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const ask = async (item: RunExport) => {
    let response: Response;
    try {
      response = await fetch(item.href);
    } catch {
      setRefusal(new BackendUnreachableError().message);
      return;
    }
    if (!response.ok) {
      // The API's refusal, {detail: [{loc, msg, type}]}: its sentences.
      const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
      setRefusal(new ApiError(response.status, body?.detail).message);
      return;
    }
    // Over since the menu was drawn: the file is here already.
    saveFile(await response.blob(), attachmentName(response.headers.get('content-disposition')) ?? `satlab-${runId}-export`);
  };
  const items = runExports(runId, finished, result).map((item) => ({
    label: item.label,
    href: item.href,
    onSelect: (event: MouseEvent) => {
      setRefusal(null);
      if (!item.askFirst) return;
      event.preventDefault();
      void ask(item);
    },
  }));
  return (
    <div className="run-exports">
      <DownloadMenu what={`run ${runId}, its results`} items={items} align="start" />
      {refusal && (
        <p className="error" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}
