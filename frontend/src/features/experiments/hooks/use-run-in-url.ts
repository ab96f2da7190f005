import { useCallback, useEffect, useState } from 'react';
import { inAddress, onAddressChange, openAddress, paths, replaceAddress } from '../../../config/paths';

/**
 * useRunInUrl keeps the run on show in the address (&run=…; the backend says when it has no such
 * run), so that a reload or a shared link reopens it; opening a run adds a history entry, and Back
 * returns to the previous one. close puts the runs list back in its place, the run's address
 * replaced (a deleted run: Back does not reopen it).
 */
export function useRunInUrl(): [string | null, (runId: string) => void, () => void] {
  const [runId, setRunId] = useState(() => inAddress.run());
  useEffect(() => onAddressChange(() => setRunId(inAddress.run())), []);
  const open = useCallback((next: string) => {
    openAddress(paths.experiments.run(next));
    setRunId(next);
  }, []);
  const close = useCallback(() => {
    replaceAddress(paths.experiments.section('runs'));
    setRunId(null);
  }, []);
  return [runId, open, close];
}
