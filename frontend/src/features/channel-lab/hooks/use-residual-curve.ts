import { useEffect, useState } from 'react';
import type { Codec } from '../../../lib/codec';
import { type ResidualCurveProgress, type ResidualCurveRequest, residualCurve } from '../logic/residual-curve';

export interface ResidualCurveState extends ResidualCurveProgress {
  /** True until every k is done. */
  running: boolean;
  /** Why the codec refused the request, as a sentence. */
  error?: string;
}

const idle: ResidualCurveState = { points: [], packetsPerSecond: 0, running: false };

/** useResidualCurve computes the residual-loss curve for a request, again whenever it changes. */
export function useResidualCurve(codec: Codec, request: ResidualCurveRequest | undefined): ResidualCurveState {
  const [state, setState] = useState<ResidualCurveState>(idle);
  useEffect(() => {
    if (!request) {
      setState(idle);
      return;
    }
    let cancelled = false;
    setState({ ...idle, running: true });
    residualCurve(codec, request, (progress) => setState({ ...progress, running: true }), () => cancelled).then(
      () => !cancelled && setState((current) => ({ ...current, running: false })),
      (error: unknown) => !cancelled && setState({ ...idle, error: (error as Error).message }),
    );
    return () => {
      cancelled = true;
    };
  }, [codec, request]);
  return state;
}
