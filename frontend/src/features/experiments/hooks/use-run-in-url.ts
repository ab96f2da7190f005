import { useCallback, useEffect, useState } from 'react';

/** The run the address names, whatever it is: the backend says when it has no such run. */
function runInAddress(): string | null {
  return new URLSearchParams(window.location.search).get('run') || null;
}

/** runHref is the address of the console showing a run (?lab=experiments&run=…), for links. */
export function runHref(runId: string): string {
  const query = new URLSearchParams(window.location.search);
  query.set('run', runId);
  return `?${query.toString()}`;
}

/**
 * useRunInUrl keeps the run on show in the address (?run=…), so that a reload or a shared link
 * reopens it; opening a run adds a history entry, and Back returns to the previous one.
 */
export function useRunInUrl(): [string | null, (runId: string) => void] {
  const [runId, setRunId] = useState(runInAddress);
  useEffect(() => {
    const follow = () => setRunId(runInAddress());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const open = useCallback((next: string) => {
    if (next !== runInAddress()) window.history.pushState(null, '', runHref(next));
    setRunId(next);
  }, []);
  return [runId, open];
}
