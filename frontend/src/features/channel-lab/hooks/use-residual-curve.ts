import { useCallback, useEffect, useRef, useState } from 'react';
import { type ResidualCurveProgress, type ResidualCurveRequest, emptyPoints, splitKs } from '../logic/residual-curve';
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
 * useResidualCurve computes the residual-loss curve of a request in Web Workers, one per core but
 * one (the values of k dealt out between them), again whenever the request changes (request must keep its
 * identity while unchanged). The points refine as the workers report; a new request or stop()
 * ends the workers at once.
 */
export function useResidualCurve(request: ResidualCurveRequest | undefined): ResidualCurveControls {
  const [state, setState] = useState<ResidualCurveState>(idle);
  const workers = useRef<Worker[]>([]);
  useEffect(() => {
    if (!request) {
      setState(idle);
      return;
    }
    // One core stays with the page, so that it answers at once while the workers compute.
    const shares = splitKs(request.ks, Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
    // Every k has a point from the start, so that the chart's axis does not move as workers report.
    const latest: ResidualCurveProgress[] = shares.map((ks) => ({ points: emptyPoints(ks), packetsPerSecond: 0, done: false }));
    const started = shares.map(() => new Worker(new URL('../logic/residual-curve.worker.ts', import.meta.url), { type: 'module' }));
    const endAll = () => started.forEach((worker) => worker.terminate());
    workers.current = started;
    setState({ ...idle, points: emptyPoints(request.ks), status: 'computing' });
    started.forEach((worker, index) => {
      worker.onmessage = (event: MessageEvent<ResidualCurveMessage>) => {
        const message = event.data;
        if (message.kind === 'error') {
          endAll();
          setState({ ...idle, error: message.message });
          return;
        }
        latest[index] = message.progress;
        if (message.progress.done) worker.terminate();
        const points = latest.flatMap((progress) => progress.points).sort((a, b) => a.k - b.k);
        const done = latest.every((progress) => progress.done);
        setState({
          points,
          packetsPerSecond: latest.reduce((total, progress) => total + progress.packetsPerSecond, 0),
          done,
          status: done ? 'done' : 'computing',
        });
      };
      worker.onerror = (event) => {
        endAll();
        setState({ ...idle, error: `The Monte-Carlo stopped: ${event.message}` });
      };
      worker.postMessage({ ...request, ks: shares[index] });
    });
    return () => {
      endAll();
      workers.current = [];
    };
  }, [request]);
  const stop = useCallback(() => {
    workers.current.forEach((worker) => worker.terminate());
    workers.current = [];
    setState((current) => (current.status === 'computing' ? { ...current, status: 'stopped' } : current));
  }, []);
  return { ...state, stop };
}
