import { useCallback, useEffect, useState } from 'react';
import { inAddress, onAddressChange, openAddress, paths } from '../../../config/paths';

/**
 * useRunInUrl keeps the run on show in the address (&run=…; the backend says when it has no such
 * run), so that a reload or a shared link reopens it; opening a run adds a history entry, and Back
 * returns to the previous one.
 */
export function useRunInUrl(): [string | null, (runId: string) => void] {
  const [runId, setRunId] = useState(() => inAddress.run());
  useEffect(() => onAddressChange(() => setRunId(inAddress.run())), []);
  const open = useCallback((next: string) => {
    openAddress(paths.experiments.run(next));
    setRunId(next);
  }, []);
  return [runId, open];
}
