import { type ReactNode, useId, useMemo, useState } from 'react';
import type { Run } from '../api/types';
import { Measure } from '../../../components/help';
import { SelectField } from '../../../components/form';
import { useQueuePlace } from '../hooks/use-queue-place';
import { useRunView } from '../hooks/use-run-view';
import { describeForwardChannel, describeScenario, describeTimeLimit, formatDuration } from '../logic/run-format';
import { glossary } from '../logic/glossary';
import { queueLabel } from '../logic/queue-place';
import { isFinished, phaseLabel } from '../logic/run-view';
import { flowLabels, iterationsOf, lastTime, runCharts } from '../logic/series';
import { PepCharts } from './pep-charts';
import { RunCharts } from './run-charts';
import { RunExports } from './run-exports';
import { RunFidelity } from './run-fidelity';
import { RunSummary } from './run-summary';
import { StreamNotice } from './stream-notice';

export interface RunPanelProps {
  /** The run to follow (live) or show (stored). */
  runId: string;
  /** Loads the run into the form, to run it again or change it. */
  onClone?: (run: Run) => void;
  /** Whether the form can hold the run: its scenario is one of the labs. */
  canClone?: (run: Run) => boolean;
  /** More of the run's actions, beside the others (the console's Share and Delete); finished: the run is over. */
  actions?: (run: Run, finished: boolean) => ReactNode;
}

/** RunPanel follows one run: its state, elapsed time and live charts, a Cancel button, then its summary. */
export function RunPanel({ runId, onClone, canClone = () => true, actions }: RunPanelProps) {
  const headingId = useId();
  const { view, cancel, cancelling, reconnect } = useRunView(runId);
  const { run, phase, samples, result } = view;
  // While a run goes on, the charts follow its current iteration unless one is picked.
  const [pickedIteration, setPickedIteration] = useState<number | null>(null);
  const iteration = pickedIteration ?? view.iteration;
  const iterations = iterationsOf(samples);
  const scenario = run?.scenario;
  const withTunnel = Boolean(scenario?.tunnel);
  const labels = useMemo(() => (scenario ? flowLabels(scenario) : []), [scenario]);
  const charts = useMemo(() => (scenario ? runCharts(samples, iteration, scenario) : []), [samples, iteration, scenario]);
  const elapsed = lastTime(samples, iteration);
  const live = run !== null && !isFinished(phase);
  const failure = phase === 'failed' ? (result?.error ?? run?.error ?? view.errors.at(-1)) : undefined;
  const otherErrors = view.errors.filter((error) => error !== failure);
  const wallTime = run?.started_at && run.finished_at ? run.finished_at - run.started_at : null;
  const inLine = queueLabel(useQueuePlace(runId, phase === 'queued'));
  const forwardChannel = run ? describeForwardChannel(run.scenario) : null;

  return (
    <section className="panel run-panel" aria-labelledby={headingId}>
      <div className="run-head">
        <h2 id={headingId}>
          Run {runId}
          {run && <span className="run-name"> · {run.name}</span>}
        </h2>
        {live && (
          <button type="button" onClick={cancel} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      {run && <p className="run-config">{describeScenario(run.scenario)}</p>}
      {forwardChannel && <p className="run-config">{forwardChannel}</p>}
      {run && (
        <div className="run-actions">
          {onClone && canClone(run) && (
            <button type="button" onClick={() => onClone(run)}>
              Edit a copy in the form
            </button>
          )}
          <RunExports runId={runId} finished={isFinished(phase)} result={result} />
          {actions?.(run, isFinished(phase))}
        </div>
      )}
      <StreamNotice stream={view.stream} what="run" id={runId} onReconnect={reconnect} />
      {view.stream !== 'not-found' && (
        <>
          <p className="visually-hidden" role="status">
            Run {runId}: {phaseLabel(phase)}
          </p>
          <dl className="counters">
            <Measure label="State" value={phaseLabel(phase)} />
            {inLine && <Measure label="Queue" value={inLine} help={glossary.queuePlace} />}
            <Measure label="Elapsed" value={elapsed === null ? '–' : formatDuration(elapsed)} help={glossary.elapsed} />
            {run && run.scenario.iterations > 1 && (
              <Measure label="Iteration" value={`${view.iteration + 1} of ${run.scenario.iterations}`} />
            )}
            {run && <Measure label="Flows" value={String(labels.length)} />}
            {wallTime !== null && <Measure label="Wall time" value={formatDuration(wallTime)} help={glossary.wallTime} />}
          </dl>
          {failure && (
            <p className="error" role="alert">
              The run failed: {failure}
            </p>
          )}
          {result?.timed_out && <p className="notice">{describeTimeLimit(result.timed_out)}</p>}
          {phase === 'cancelled' && <p className="notice">The run was cancelled; everything it built was torn down.</p>}
          {otherErrors.map((error) => (
            <p key={error} className="error" role="alert">
              {error}
            </p>
          ))}
          {iterations.length > 1 && (
            <SelectField
              label="Iteration shown"
              value={String(iteration)}
              options={iterations.map((candidate) => ({ value: String(candidate), label: `iteration ${candidate}` }))}
              onChange={(value) => setPickedIteration(Number(value))}
            />
          )}
          <RunCharts
            charts={charts}
            xDomain={[0, Math.max(elapsed ?? 0, 1)]}
            source={`satlab run ${runId}${run ? ` (${run.name})` : ''}, iteration ${iteration}`}
          />
          {run?.scenario.pep && (
            <PepCharts
              samples={samples}
              iteration={iteration}
              labels={labels}
              xDomain={[0, Math.max(elapsed ?? 0, 1)]}
              source={`satlab run ${runId} (${run.name}), iteration ${iteration}`}
            />
          )}
          {result && <RunSummary runId={runId} result={result} withTunnel={withTunnel} />}
          {result?.fidelity && <RunFidelity fidelity={result.fidelity} />}
        </>
      )}
    </section>
  );
}
