import { useState } from 'react';
import { createRun, RunPanel } from '../../../shared/runs';
import { type RunBlock, runCommand } from '../logic/widget-blocks';
import { ReferenceRunView } from './reference-run';
import { useSheet } from './sheet-context';

/**
 * RunWidget is a run of a preset of labs/ with the sheet's overrides. With a backend that can run
 * it, Run starts it and the console's run view follows it live (a press, not the page's opening,
 * starts it: a class opening the sheet at once would otherwise queue a run each). Whatever the
 * backend, the reference run shipped with the sheet is charted below, to compare with.
 */
export function RunWidget({ run }: { run: RunBlock }) {
  const { runsHere, sheetId } = useSheet();
  const [runId, setRunId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const start = () => {
    setStarting(true);
    setProblem(null);
    createRun(run.lab, run.set, { page: 'sheet', sheet: sheetId })
      .then(
        (created) => setRunId(created.run_id),
        (error: Error) => setProblem(`The run did not start: ${error.message}`),
      )
      .finally(() => setStarting(false));
  };
  return (
    <figure className="sheet-widget run-widget" aria-label={`A run of ${run.lab}`}>
      <figcaption>
        <strong>A run of the preset {run.lab}</strong>
        {run.set.length > 0 && (
          <>
            {' with '}
            {run.set.map((assignment, index) => (
              <span key={assignment}>
                {index > 0 && ', '}
                <code>{assignment}</code>
              </span>
            ))}
          </>
        )}
      </figcaption>
      <p className="run-command">
        <code>{runCommand(run)}</code>
      </p>
      <div className="sheet-live">
        {runsHere.status === 'checking' && <p role="status">Asking the backend whether runs can start here…</p>}
        {runsHere.status === 'ready' && (
          <div className="run-actions">
            <button type="button" onClick={start} disabled={starting}>
              {starting ? 'Starting…' : runId ? 'Run it again' : 'Run it'}
            </button>
          </div>
        )}
        {runsHere.status === 'no-root' && (
          <p className="notice">The backend here was started without root, which runs need: the reference run is below.</p>
        )}
        {runsHere.status === 'static' && (
          <p className="notice">
            Running it needs the satlab backend, which this copy of the site is served without: the reference run shipped
            with the sheet is below.
          </p>
        )}
        {runsHere.status === 'failed' && (
          <p className="error" role="alert">
            {runsHere.message}
          </p>
        )}
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        {runId && <RunPanel key={runId} runId={runId} />}
      </div>
      {run.reference ? (
        <ReferenceRunView id={run.reference} />
      ) : (
        <p className="muted">This run has no reference run shipped with the sheet.</p>
      )}
    </figure>
  );
}
