import { useCallback, useEffect, useReducer, useState } from 'react';
import { cancelRun, getSamples, openStream } from '../api/client';
import type { StreamEvent } from '../api/types';
import { initialRunView, runViewReducer } from '../logic/run-view';
import { useBackendConnection, whenUnreachable } from './backend-connection';

/**
 * useRunView follows one run through its stream; when the run has already started, its stored
 * samples are fetched too (after subscribing, so that none falls in between; duplicates merge).
 */
export function useRunView(runId: string) {
  const { generation, reportLost } = useBackendConnection();
  const [view, dispatch] = useReducer(runViewReducer, initialRunView);
  const [connection, setConnection] = useState(0);
  const [cancelling, setCancelling] = useState(false);
  useEffect(() => {
    let samplesAsked = false;
    dispatch({ type: 'connecting' });
    return openStream<StreamEvent>(
      `runs/${encodeURIComponent(runId)}/stream`,
      (event) => {
        dispatch({ type: 'event', event });
        if (event.type === 'run' && event.run.status !== 'queued' && !samplesAsked) {
          samplesAsked = true;
          getSamples(runId).then(
            (samples) => dispatch({ type: 'samples', samples }),
            (error: Error) =>
              whenUnreachable(error, reportLost) ||
              dispatch({ type: 'failed', message: `The run's stored samples did not load: ${error.message}` }),
          );
        }
      },
      (code) => dispatch({ type: 'closed', code }),
    );
  }, [runId, connection, generation, reportLost]);
  const cancel = useCallback(() => {
    setCancelling(true);
    cancelRun(runId).catch((error: Error) => {
      setCancelling(false);
      if (!whenUnreachable(error, reportLost)) dispatch({ type: 'failed', message: `The run was not cancelled: ${error.message}` });
    });
  }, [runId, reportLost]);
  const reconnect = useCallback(() => setConnection((count) => count + 1), []);
  return { view, cancel, cancelling, reconnect };
}
