import { useCallback, useEffect, useRef, useState } from 'react';
import { type ResidualCurveRequest, type ResidualPoint, emptyPoints, mergePoints, shareOut } from '../logic/residual-curve';
import type { ResidualCurveMessage } from '../logic/residual-curve.worker';

export interface ResidualCurveState {
  /** One point per k of the request, the workers' counts added up; each refines as they report. */
  points: ResidualPoint[];
  /** Packets through encoder, channel and decoder per second of wall clock since the request, over all workers. */
  packetsPerSecond: number;
  /** Web Workers sharing the request. */
  workers: number;
  /** computing until every point holds its sources; stopped when cancelled; idle without a request. */
  status: 'idle' | 'computing' | 'done' | 'stopped';
  /** Why the codec refused the request, as a sentence. */
  error?: string;
}

export interface ResidualCurveControls extends ResidualCurveState {
  /** Stops the computation, keeping the points counted so far. */
  stop: () => void;
}

const idle: ResidualCurveState = { points: [], packetsPerSecond: 0, workers: 0, status: 'idle' };

/**
 * The page draws the workers' reports at most this often: a redraw costs the page's thread a few
 * ms, and several workers report independently.
 */
const redrawEveryMs = 200;

/**
 * useResidualCurve computes the residual-loss curve of a request in one Web Worker per core, each
 * counting its own stretch of every k's stream (shareOut), again whenever the request changes
 * (request must keep its identity while unchanged). The points refine as the workers report; a new
 * request or stop() ends the workers at once.
 */
export function useResidualCurve(request: ResidualCurveRequest | undefined): ResidualCurveControls {
  const [state, setState] = useState<ResidualCurveState>(idle);
  const cancel = useRef<() => void>(() => {});
  useEffect(() => {
    if (!request) {
      setState(idle);
      return;
    }
    const shares = shareOut(request, navigator.hardwareConcurrency || 2);
    const latest = shares.map((share) => emptyPoints(share.ks));
    const finished = shares.map(() => false);
    const started = performance.now();
    let ended = started;
    let redraw: ReturnType<typeof setTimeout> | undefined;
    const workers = shares.map(() => new Worker(new URL('../logic/residual-curve.worker.ts', import.meta.url), { type: 'module' }));
    const endAll = () => {
      workers.forEach((worker) => worker.terminate());
      clearTimeout(redraw);
    };
    const draw = () => {
      redraw = undefined;
      const points = mergePoints(latest);
      const done = finished.every(Boolean);
      const packets = points.reduce((total, point) => total + point.packets, 0);
      const seconds = ((done ? ended : performance.now()) - started) / 1000;
      setState({ points, packetsPerSecond: seconds > 0 ? packets / seconds : 0, workers: workers.length, status: done ? 'done' : 'computing' });
    };
    cancel.current = endAll;
    setState({ ...idle, points: emptyPoints(request.ks), workers: workers.length, status: 'computing' });
    workers.forEach((worker, index) => {
      worker.onmessage = (event: MessageEvent<ResidualCurveMessage>) => {
        const message = event.data;
        if (message.kind === 'error') {
          endAll();
          setState({ ...idle, error: message.message });
          return;
        }
        latest[index] = message.progress.points;
        finished[index] = message.progress.done;
        if (message.progress.done) worker.terminate();
        if (finished.every(Boolean)) {
          ended = performance.now();
          clearTimeout(redraw);
          draw();
        } else {
          redraw ??= setTimeout(draw, redrawEveryMs);
        }
      };
      worker.onerror = (event) => {
        endAll();
        setState({ ...idle, error: `The Monte-Carlo stopped: ${event.message}` });
      };
      worker.postMessage(shares[index]);
    });
    return () => {
      endAll();
      cancel.current = () => {};
    };
  }, [request]);
  const stop = useCallback(() => {
    cancel.current();
    setState((current) => (current.status === 'computing' ? { ...current, status: 'stopped' } : current));
  }, []);
  return { ...state, stop };
}
