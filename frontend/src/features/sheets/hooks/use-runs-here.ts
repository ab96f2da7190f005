import { useEffect, useState } from 'react';
import { BackendMissingError } from '../../../shared/api';
import { getCapabilities } from '../../../shared/runs';

/** Whether this page can start runs: a backend answers (as root), none is there (a static copy), or it failed. */
export type RunsHere =
  | { status: 'checking' }
  | { status: 'ready' }
  | { status: 'no-root' }
  | { status: 'static' }
  | { status: 'failed'; message: string };

/** useRunsHere asks the backend once, for the whole sheet, whether runs can start from it. */
export function useRunsHere(): RunsHere {
  const [state, setState] = useState<RunsHere>({ status: 'checking' });
  useEffect(() => {
    let current = true;
    getCapabilities().then(
      (capabilities) => current && setState({ status: capabilities.root ? 'ready' : 'no-root' }),
      (error: Error) =>
        current &&
        setState(
          error instanceof BackendMissingError
            ? { status: 'static' }
            : { status: 'failed', message: `The satlab backend did not say what it can run: ${error.message}` },
        ),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}
