import { useEffect, useState } from 'react';
import { getRun, getSamples, useBackendConnection, whenUnreachable } from '../../../shared/runs';
import type { OverlaidRun } from '../logic/overlay';

/**
 * useOverlaidRuns loads the runs picked for overlaying, each with its samples (each once: a run
 * picked again is at hand), in the order they were picked; failures name their run.
 */
export function useOverlaidRuns(runIds: string[]) {
  const { generation, reportLost } = useBackendConnection();
  const [loaded, setLoaded] = useState<Record<string, OverlaidRun>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const missing = runIds.filter((runId) => !loaded[runId]).join(',');
  useEffect(() => {
    let current = true;
    for (const runId of missing ? missing.split(',') : []) {
      Promise.all([getRun(runId), getSamples(runId)]).then(
        ([run, samples]) => current && setLoaded((previous) => ({ ...previous, [runId]: { run, samples } })),
        (error: Error) =>
          current && !whenUnreachable(error, reportLost) && setErrors((previous) => ({ ...previous, [runId]: `Run ${runId} did not load: ${error.message}` })),
      );
    }
    return () => {
      current = false;
    };
  }, [missing, generation, reportLost]);
  return {
    runs: runIds.flatMap((runId) => loaded[runId] ?? []),
    errors: runIds.flatMap((runId) => errors[runId] ?? []),
  };
}
