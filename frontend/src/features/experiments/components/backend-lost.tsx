import { useEffect, useState } from 'react';
import { backendAddress } from '../../../shared/api';

export interface BackendLostProps {
  /** When the console asks the backend again by itself (ms since the epoch), if it is waiting to. */
  retryAt: number | null;
  /** Ask the backend at once. */
  onRetry: () => void;
}

/** BackendLost says that the backend does not answer, when the console tries again, and offers to try now. */
export function BackendLost({ retryAt, onRetry }: BackendLostProps) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = retryAt === null ? null : Math.max(0, Math.ceil((retryAt - now) / 1000));
  return (
    <div className="error backend-lost" role="alert">
      <p>
        The backend at {backendAddress()} is not answering. Was it stopped or restarted? Runs and campaigns it holds are safe in its
        store; this page reconnects by itself when it is back{seconds === null ? '.' : seconds > 0 ? ` (next try in ${seconds} s).` : ' (trying now).'}
      </p>
      <button type="button" onClick={onRetry}>
        Retry now
      </button>
    </div>
  );
}
