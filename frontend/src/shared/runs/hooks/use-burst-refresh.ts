import { useCallback, useEffect, useRef } from 'react';

const REFRESH_DELAY_MS = 400;

/**
 * useBurstRefresh returns schedule(): events come in bursts (a run's states, then its summary,
 * then its campaign's progress), and each burst calls refresh once, a moment after it starts.
 * refresh must keep its identity (useCallback).
 */
export function useBurstRefresh(refresh: () => void, delayMs = REFRESH_DELAY_MS): () => void {
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
      pending.current = null;
    },
    [],
  );
  return useCallback(() => {
    if (pending.current !== null) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      refresh();
    }, delayMs);
  }, [refresh, delayMs]);
}
