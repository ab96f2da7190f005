import { type Ref, useId } from 'react';
import { fidelityVerdict, hostLateNote, type RunList } from '../../../shared/runs';
import { paths } from '../../../config/paths';
import { describeFlows, describeOrigin, flowFigure, formatCreated, NOT_RECORDED } from '../logic/format';
import { openInPlace } from './open-in-place';
import { ListHead } from './list-head';

export interface RunsListProps {
  /** One page of runs, newest first; null while it loads. */
  list: RunList | null;
  /** Why the list did not load, if it did not. */
  error: string | null;
  /** The page shown, from 0. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** The run on show, marked in the list. */
  selected: string | null;
  /** Opens a run in the console. */
  onOpen: (runId: string) => void;
  onRefresh: () => void;
  /** The runs picked to be overlaid on one chart. */
  compared: string[];
  /** Picks a run for the overlay, or drops it. */
  onCompare: (runId: string, compared: boolean) => void;
  /** Whether the list names each run's owner: the instructor's does (a student's lists their own runs, and those shared). */
  showOwner: boolean;
  /** The list's section, which takes the focus when the console returns to it (tabIndex -1). */
  ref?: Ref<HTMLElement>;
}

/** RunsList pages through the stored runs; each opens in the console (a link, so it also opens in a new tab). */
export function RunsList({ list, error, page, pageSize, onPage, selected, onOpen, onRefresh, compared, onCompare, showOwner, ref }: RunsListProps) {
  const headingId = useId();
  const open = (runId: string) => openInPlace(onOpen, runId);
  const first = page * pageSize + 1;
  const last = Math.min((page + 1) * pageSize, list?.count ?? 0);
  return (
    <section className="panel" aria-labelledby={headingId} tabIndex={-1} ref={ref}>
      <ListHead headingId={headingId} title="Runs" error={error} onRefresh={onRefresh} />
      {list && list.count === 0 && <p className="muted">No runs yet: start one with the form.</p>}
      {list && list.count > 0 && (
        <>
          <div className="table-scroll">
            <table className="results runs-table" aria-labelledby={headingId}>
              <thead>
                <tr>
                  <th scope="col">Compare</th>
                  <th scope="col">Run</th>
                  <th scope="col">Lab</th>
                  {showOwner && <th scope="col">Owner</th>}
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">Flows</th>
                  <th scope="col">Download time, s</th>
                  <th scope="col">Goodput, Mbit/s</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((run) => (
                  <tr key={run.run_id} aria-current={run.run_id === selected || undefined}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Compare run ${run.run_id}`}
                        checked={compared.includes(run.run_id)}
                        onChange={(event) => onCompare(run.run_id, event.target.checked)}
                      />
                    </td>
                    <th scope="row">
                      <a href={paths.experiments.run(run.run_id)} onClick={open(run.run_id)} aria-label={`Open run ${run.run_id}`}>
                        {run.run_id}
                      </a>
                    </th>
                    <td className="run-origin" title={run.origin === null ? 'Not recorded: the run was queued before satlab recorded where runs come from.' : undefined}>
                      {describeOrigin(run.origin)}
                    </td>
                    {showOwner && (
                      <td title={run.owner === null ? 'Nobody signed in queued it: the command line, or a satlab from before sign-in.' : undefined}>{run.owner?.name ?? NOT_RECORDED}</td>
                    )}
                    <td>
                      <span className={`status status-${run.status}`} title={run.error ?? undefined}>
                        {run.status}
                      </span>
                      {fidelityVerdict(run) === 'late' && (
                        <span className="host-late" title={hostLateNote}>
                          host late
                        </span>
                      )}
                    </td>
                    <td>{formatCreated(run.created_at)}</td>
                    <td>{describeFlows(run.flows)}</td>
                    <td>{flowFigure(run.flows, 'download_time_s', 2)}</td>
                    <td>{flowFigure(run.flows, 'goodput_mbps', 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0}>
              Newer runs
            </button>
            <span>
              {first}–{last} of {list.count}
            </span>
            <button type="button" onClick={() => onPage(page + 1)} disabled={last >= list.count}>
              Older runs
            </button>
          </div>
        </>
      )}
    </section>
  );
}
