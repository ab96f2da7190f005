// The channel lab's Monte-Carlo, off the page's thread: one share of a request per worker. The page
// ends the worker (terminate) to cancel it or when the request changes, so the computation needs no pauses.
import { loadCodec } from '../../../lib/codec/load-codec';
import { type ResidualCurveProgress, type ResidualCurveShare, runResidualCurve } from './residual-curve';

export type ResidualCurveMessage = { kind: 'progress'; progress: ResidualCurveProgress } | { kind: 'error'; message: string };

/** The worker's side of its port (the DOM library types self as a window). */
const port = self as unknown as {
  onmessage: (event: MessageEvent<ResidualCurveShare>) => void;
  postMessage: (message: ResidualCurveMessage) => void;
};

port.onmessage = async (event) => {
  try {
    const codec = await loadCodec();
    runResidualCurve(codec, event.data, (progress) => port.postMessage({ kind: 'progress', progress }));
  } catch (error) {
    port.postMessage({ kind: 'error', message: (error as Error).message });
  }
};
