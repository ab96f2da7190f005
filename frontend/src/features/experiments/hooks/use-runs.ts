import { useCallback, useEffect, useState } from 'react';
import { listRuns, openStream } from '../api/client';
import type { RunList } from '../api/types';
import { useBurstRefresh } from './use-burst-refresh';

/**
 * useRuns pages through the stored runs, newest first, and refreshes the page whenever any run
 * changes state or ends (WS api/events), so that runs started by others in the class show up too.
 */
export function useRuns(pageSize: number) {
  const [page, setPage] = useState(0);
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<RunList | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  const scheduleRefresh = useBurstRefresh(refresh);

  useEffect(() => {
    let current = true;
    listRuns(pageSize, page * pageSize).then(
      (runs) => {
        if (!current) return;
        setList(runs);
        setError(null);
      },
      (failure: Error) => current && setError(`The list of runs did not load: ${failure.message}`),
    );
    return () => {
      current = false;
    };
  }, [page, pageSize, version]);

  useEffect(
    () =>
      openStream<{ type: string }>(
        'events',
        (event) => event.type !== 'sample' && scheduleRefresh(),
        () => {},
      ),
    [scheduleRefresh],
  );

  return { list, error, page, setPage, refresh, pageSize };
}
