import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api';
import { deleteRun, type Run, shareRun, useBackendConnection, whenUnreachable } from '../../../shared/runs';
import { Refusal } from './refusal';

export interface RunAdminProps {
  /** The run on show. */
  run: Run;
  /** Whether it is over: only a finished run may be deleted (the API refuses the others, 409). */
  finished: boolean;
  /** Called once the run is deleted, to go back to the runs list. */
  onDeleted: (runId: string) => void;
}

/** Why an action did not go through: the API's sentences, or why nobody answered. */
interface Refused {
  problems: string[];
  failure?: string;
}

function refusedBy(error: unknown, failed: string): Refused {
  if (error instanceof ApiError && error.problems.length > 0) return { problems: error.problems.map((problem) => problem.msg) };
  return { problems: [], failure: `${failed}: ${(error as Error).message}` };
}

/**
 * RunAdmin is what the instructor alone may do with a run (the API's share and delete routes, which
 * refuse a student): show it to the class or no longer, and delete it once it is over, after a
 * confirmation. A refusal comes beside the control that asked, and takes the focus (Refusal).
 */
export function RunAdmin({ run, finished, onDeleted }: RunAdminProps) {
  const { reportLost } = useBackendConnection();
  const questionId = useId();
  const [shared, setShared] = useState(run.shared);
  const [sharedNote, setSharedNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [refused, setRefused] = useState<{ control: 'share' | 'delete'; why: Refused } | null>(null);
  const refusal = useRef<HTMLDivElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => refusal.current?.focus(), [refused]);
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);

  const act = async (control: 'share' | 'delete', send: () => Promise<{ message: string }>, failed: string, done: (message: string) => void) => {
    setBusy(true);
    setRefused(null);
    try {
      done((await send()).message);
    } catch (error) {
      whenUnreachable(error, reportLost);
      setRefused({ control, why: refusedBy(error, failed) });
    } finally {
      setBusy(false);
    }
  };
  const share = () =>
    void act('share', () => shareRun(run.run_id, !shared), 'The run’s sharing did not change', (message) => {
      setShared(!shared);
      setSharedNote(message);
    });
  const remove = () =>
    void act('delete', () => deleteRun(run.run_id), `Run ${run.run_id} was not deleted`, () => {
      setConfirming(false);
      onDeleted(run.run_id);
    });

  const refusalOf = (control: 'share' | 'delete', what: string) =>
    refused?.control === control && <Refusal what={what} failure={refused.why.failure} problems={refused.why.problems} ref={refusal} />;
  return (
    <div className="run-admin">
      <div className="run-admin-control">
        <button type="button" onClick={share} disabled={busy} aria-pressed={shared}>
          Share with the class
        </button>
        <span role="status">{sharedNote}</span>
        {refusalOf('share', 'change')}
      </div>
      {finished && (
        <div className="run-admin-control">
          {confirming ? (
            <div role="group" aria-labelledby={questionId} className="run-admin-confirm">
              <p id={questionId}>Delete run {run.run_id} with its samples, summaries and kept files? This cannot be undone.</p>
              <button type="button" onClick={remove} disabled={busy}>
                Delete run {run.run_id}
              </button>
              <button type="button" ref={keep} onClick={() => setConfirming(false)} disabled={busy}>
                Keep it
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          )}
          {refusalOf('delete', 'deletion')}
        </div>
      )}
    </div>
  );
}
