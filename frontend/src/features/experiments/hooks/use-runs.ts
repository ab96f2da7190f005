import { useCallback, useEffect, useRef, useState } from 'react';
import { listRuns, openStream } from '../api/client';
import type { RunList } from '../api/types';

const REFRESH_DELAY_MS = 400;

/**
 * useRuns pages through the stored runs, newest first, and refreshes the page whenever any run
 * changes state or ends (WS api/events), so that runs started by others in the class show up too.
 */
export function useRuns(pageSize: number) {
  const [page, setPage] = useState(0);
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<RunList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  const refresh = useCallback(() => setVersion((count) => count + 1), []);

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

  useEffect(() => {
    // Events come in bursts (a run's states, then its summary): one refresh per burst.
    const close = openStream<{ type: string }>(
      'events',
      (event) => {
        if (event.type === 'sample' || pending.current !== null) return;
        pending.current = setTimeout(() => {
          pending.current = null;
          refresh();
        }, REFRESH_DELAY_MS);
      },
      () => {},
    );
    return () => {
      close();
      if (pending.current !== null) clearTimeout(pending.current);
      pending.current = null;
    };
  }, [refresh]);

  return { list, error, page, setPage, refresh, pageSize };
}
