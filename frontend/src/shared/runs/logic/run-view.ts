import { finishedStatuses, type Run, type RunResult, type RunSamples, type RunStatus, type StreamEvent } from '../api/types';
import { STREAM_NOT_FOUND } from '../api/client';
import { mergeSamples, noSamples } from './samples';

/**
 * What the console knows of one run, built from its stream (WS api/runs/{id}/stream: the run, then
 * the engine's events) and its stored samples; a pure reducer, so that a run opened live, half-way
 * or long after it ended ends up the same.
 */

/** The run's status, or the engine's finer state while it runs. */
export type Phase = RunStatus | 'started' | 'building' | 'collecting';

export type StreamState = 'connecting' | 'open' | 'ended' | 'lost' | 'not-found';

export interface RunView {
  run: Run | null;
  phase: Phase | null;
  /** The iteration the latest state or sample was about. */
  iteration: number;
  samples: RunSamples;
  result: RunResult | null;
  /** Error events, and failures to load what the view needs. */
  errors: string[];
  stream: StreamState;
}

export type RunViewAction =
  | { type: 'event'; event: StreamEvent }
  | { type: 'samples'; samples: RunSamples }
  | { type: 'closed'; code: number }
  | { type: 'failed'; message: string }
  | { type: 'connecting' };

export const initialRunView: RunView = {
  run: null,
  phase: null,
  iteration: 0,
  samples: noSamples,
  result: null,
  errors: [],
  stream: 'connecting',
};

export const isFinished = (phase: Phase | null) => phase !== null && (finishedStatuses as readonly string[]).includes(phase);

export function runViewReducer(view: RunView, action: RunViewAction): RunView {
  switch (action.type) {
    case 'samples':
      return { ...view, samples: mergeSamples(view.samples, action.samples) };
    case 'failed':
      return { ...view, errors: [...view.errors, action.message] };
    case 'connecting':
      // A new connection (after a reconnect, or the backend's return): the old one's failures are stale.
      return { ...view, errors: [], stream: 'connecting' };
    case 'closed': {
      const stream = action.code === STREAM_NOT_FOUND ? 'not-found' : isFinished(view.phase) ? 'ended' : 'lost';
      return { ...view, stream };
    }
    case 'event':
      return applyEvent({ ...view, stream: 'open' }, action.event);
  }
}

function applyEvent(view: RunView, event: StreamEvent): RunView {
  switch (event.type) {
    case 'run':
      return { ...view, run: event.run, phase: event.run.status, result: event.run.result };
    case 'state':
      return { ...view, phase: event.state as Phase, iteration: event.iteration ?? view.iteration };
    case 'sample':
      return { ...view, iteration: event.iteration, samples: mergeSamples(view.samples, event) };
    case 'error':
      return { ...view, errors: [...view.errors, event.message] };
    case 'summary': {
      const { type: _, ...result } = event;
      const run = view.run && { ...view.run, status: result.status, error: result.error, result };
      return { ...view, run, result, phase: result.status };
    }
  }
}

const phaseLabels: Record<Phase, string> = {
  queued: 'Queued',
  started: 'Starting',
  building: 'Building the path',
  running: 'Running',
  collecting: 'Collecting results',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** phaseLabel says where the run is, in words. */
export const phaseLabel = (phase: Phase | null) => (phase === null ? 'Connecting…' : (phaseLabels[phase] ?? phase));
