import { useEffect, useState } from 'react';
import { getQueuePlace } from '../api/client';
import type { QueuePlace } from '../logic/queue-place';

/** How often a queued run asks for its place in line. */
const POLL_MS = 3000;

/** useQueuePlace follows a queued run's place in line (null while it is not queued, or unknown). */
export function useQueuePlace(runId: string, queued: boolean): QueuePlace | null {
  const [place, setPlace] = useState<QueuePlace | null>(null);
  useEffect(() => {
    if (!queued) {
      setPlace(null);
      return;
    }
    let current = true;
    const ask = () =>
      getQueuePlace(runId).then(
        (answer) => current && setPlace(answer),
        () => current && setPlace(null), // an older backend without the route, or one gone: say nothing
      );
    void ask();
    const timer = window.setInterval(() => void ask(), POLL_MS);
    return () => {
      current = false;
      window.clearInterval(timer);
    };
  }, [runId, queued]);
  return place;
}
