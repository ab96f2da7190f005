import { useEffect, useState } from 'react';
import { BackendMissingError, getCapabilities, getLabs } from '../api/client';
import type { Capabilities, Lab } from '../api/types';

export type Backend =
  | { status: 'checking' }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string }
  | { status: 'ready'; capabilities: Capabilities; labs: Lab[] };

/** useBackend asks the API what this host can run and which labs it has; missing when there is no API here. */
export function useBackend(): Backend {
  const [backend, setBackend] = useState<Backend>({ status: 'checking' });
  useEffect(() => {
    let current = true;
    Promise.all([getCapabilities(), getLabs()]).then(
      ([capabilities, labs]) => current && setBackend({ status: 'ready', capabilities, labs: labs.data }),
      (error: Error) =>
        current &&
        setBackend(
          error instanceof BackendMissingError
            ? { status: 'missing', message: error.message }
            : { status: 'failed', message: `The satlab backend answered with an error: ${error.message}` },
        ),
    );
    return () => {
      current = false;
    };
  }, []);
  return backend;
}
