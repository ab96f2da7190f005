import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResidualCurveProgress, ResidualCurveRequest } from '../logic/residual-curve';
import type { ResidualCurveMessage } from '../logic/residual-curve.worker';

export interface ResidualCurveState extends ResidualCurveProgress {
  /** computing until every point holds its sources; stopped when cancelled; idle without a request. */
  status: 'idle' | 'computing' | 'done' | 'stopped';
  /** Why the codec refused the request, as a sentence. */
  error?: string;
}

export interface ResidualCurveControls extends ResidualCurveState {
  /** Stops the computation, keeping the points counted so far. */
  stop: () => void;
}

const idle: ResidualCurveState = { points: [], packetsPerSecond: 0, done: false, status: 'idle' };

/**
 * useResidualCurve computes the residual-loss curve of a request in a Web Worker, again whenever
 * the request changes (request must keep its identity while unchanged). The points refine as the
 * worker reports; a new request or stop() ends the worker at once.
 */
export function useResidualCurve(request: ResidualCurveRequest | undefined): ResidualCurveControls {
  const [state, setState] = useState<ResidualCurveState>(idle);
  const worker = useRef<Worker | undefined>(undefined);
  useEffect(() => {
    if (!request) {
      setState(idle);
      return;
    }
    const started = new Worker(new URL('../logic/residual-curve.worker.ts', import.meta.url), { type: 'module' });
    worker.current = started;
    setState({ ...idle, status: 'computing' });
    started.onmessage = (event: MessageEvent<ResidualCurveMessage>) => {
      const message = event.data;
      if (message.kind === 'error') {
        setState({ ...idle, error: message.message });
        started.terminate();
      } else {
        setState({ ...message.progress, status: message.progress.done ? 'done' : 'computing' });
        if (message.progress.done) started.terminate();
      }
    };
    started.onerror = (event) => setState({ ...idle, error: `The Monte-Carlo stopped: ${event.message}` });
    started.postMessage(request);
    return () => {
      started.terminate();
      worker.current = undefined;
    };
  }, [request]);
  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = undefined;
    setState((current) => (current.status === 'computing' ? { ...current, status: 'stopped' } : current));
  }, []);
  return { ...state, stop };
}
