import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError, BackendMissingError } from '../../../shared/api';
import { type Capabilities, getCapabilities, getLabs, type Lab, openStream, whenUnreachable } from '../../../shared/runs';
import { getOpenApi, type Limits, limitsFromOpenApi } from '../api/limits';
import { retryDelayMs } from '../../../shared/runs';
import { connectionReducer, initialConnection } from '../logic/connection';

export type Backend =
  | { status: 'checking' }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string }
  /** The backend wants a sign-in before it says anything (401). */
  | { status: 'sign-in' }
  | { status: 'ready'; capabilities: Capabilities; labs: Lab[]; limits: Limits };

/**
 * useBackend asks the API what this host can run, which labs it has and its limits (missing when
 * the page is served without an API at all); then watches the events stream: when it closes, or a
 * request finds nobody, the backend is lost, and is asked again with a growing delay (or at once,
 * with retry) until it answers, when everything reloads.
 */
export function useBackend() {
  const [backend, setBackend] = useState<Backend>({ status: 'checking' });
  const [connection, dispatch] = useReducer(connectionReducer, initialConnection);
  const reportLost = useCallback(() => dispatch({ type: 'lost' }), []);
  const retry = useCallback(() => dispatch({ type: 'retry' }), []);
  const { lost, attempts, generation, retries } = connection;

  useEffect(() => {
    let current = true;
    Promise.all([getCapabilities(), getLabs(), getOpenApi()]).then(
      ([capabilities, labs, openApi]) => {
        if (!current) return;
        try {
          setBackend({ status: 'ready', capabilities, labs: labs.data, limits: limitsFromOpenApi(openApi) });
        } catch (error) {
          setBackend({ status: 'failed', message: `The satlab backend cannot be used from this page: ${(error as Error).message}.` });
        }
      },
      (error: Error) => {
        if (!current || whenUnreachable(error, reportLost)) return;
        setBackend(
          error instanceof BackendMissingError
            ? { status: 'missing', message: error.message }
            : error instanceof ApiError && error.status === 401
              ? { status: 'sign-in' }
              : { status: 'failed', message: `The satlab backend answered with an error: ${error.message}` },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [generation, reportLost]);

  const ready = backend.status === 'ready';
  useEffect(() => {
    if (!ready || lost) return;
    let current = true;
    let opened = false;
    const close = openStream(
      'events',
      () => {},
      () =>
        // Closed: if the backend does not answer, it is lost. If it does, either it went and came
        // back (the stream had opened: reload everything), or it refused the stream (not signed
        // in, no stream slot left): no outage, and the lists still load on Refresh.
        getCapabilities().then(
          () => current && opened && dispatch({ type: 'restarted' }),
          () => current && reportLost(),
        ),
      () => {
        opened = true;
      },
    );
    return () => {
      current = false;
      close();
    };
  }, [ready, lost, generation, reportLost]);

  const [retryAt, setRetryAt] = useState<number | null>(null);
  const retriesSeen = useRef(retries);
  useEffect(() => {
    if (!lost) return;
    // A Retry press asks at once; otherwise after the backoff.
    const pressed = retries !== retriesSeen.current;
    retriesSeen.current = retries;
    const delay = pressed ? 0 : retryDelayMs(attempts);
    setRetryAt(Date.now() + delay);
    let current = true;
    const timer = window.setTimeout(() => {
      getCapabilities().then(
        () => current && dispatch({ type: 'back' }),
        () => current && dispatch({ type: 'probe-failed' }),
      );
    }, delay);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [lost, attempts, retries]);

  return { backend, connection: { generation, lost, reportLost }, retry, retryAt };
}
