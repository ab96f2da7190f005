import { useCallback, useEffect, useState } from 'react';
import { openStream, useBackendConnection, whenUnreachable, useBurstRefresh } from '../../../shared/runs';

/**
 * useLiveList loads a list of the backend's (load changes identity when what it loads does) and
 * loads it again whenever an event of WS api/events says it changed (whoever changed it), on
 * refresh, and when the backend is back after an outage, which also clears the outage's error.
 * `what` names the list in its error: "runs".
 */
export function useLiveList<List>(load: () => Promise<List>, what: string, changes: (event: { type: string }) => boolean) {
  const { generation, reportLost } = useBackendConnection();
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<List | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  const scheduleRefresh = useBurstRefresh(refresh);

  useEffect(() => {
    let current = true;
    load().then(
      (loaded) => {
        if (!current) return;
        setList(loaded);
        setError(null);
      },
      (failure: Error) => {
        if (!current || whenUnreachable(failure, reportLost)) return;
        setError(`The list of ${what} did not load: ${failure.message}`);
      },
    );
    return () => {
      current = false;
    };
  }, [load, what, version, generation, reportLost]);

  useEffect(
    () => openStream<{ type: string }>('events', (event) => changes(event) && scheduleRefresh(), () => {}),
    // Reopened when the backend is back (the console's own watch reports its loss); changes is
    // a pure test of an event, the same for the list's whole life.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- changes: see above
    [scheduleRefresh, generation],
  );

  return { list, error, refresh };
}
