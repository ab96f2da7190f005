import { useCallback, useId } from 'react';
import { paths } from '../../../config/paths';
import { getWorkers } from '../api/workers';
import { useLiveList } from '../hooks/use-live-list';
import { capacityOf, kindName } from '../logic/workers';
import { ListHead } from './list-head';

// A run starting or ending changes what a worker runs.
const changesWorkers = (event: { type: string }) => event.type === 'state' || event.type === 'summary';

/**
 * WorkersPanel shows who runs the runs: each `satlab worker` (its host, how many runs of each kind
 * its calibration lets it run at once, what it runs now), or this server when no broker is set.
 */
export function WorkersPanel() {
  const headingId = useId();
  const load = useCallback(() => getWorkers(), []);
  const { list, error, refresh } = useLiveList(load, 'workers', changesWorkers);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <ListHead headingId={headingId} title="Workers" error={error} onRefresh={refresh} />
      {list?.broker === 'none' && <p className="muted">No broker is set: this server runs every run itself.</p>}
      {list?.broker === 'connected' && list.workers.length === 0 && (
        <p className="muted">No worker is connected: queued runs wait in Redis until one starts (satlab worker).</p>
      )}
      {list && list.workers.length > 0 && (
        <div className="table-scroll">
          <table className="results" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Worker</th>
                <th scope="col">Host</th>
                <th scope="col">Runs at once</th>
                <th scope="col">Running now</th>
              </tr>
            </thead>
            <tbody>
              {list.workers.map((worker) => (
                <tr key={worker.name}>
                  <th scope="row">{worker.name}</th>
                  <td>{worker.host}</td>
                  <td>{capacityOf(worker)}</td>
                  <td>
                    {worker.runs.length === 0
                      ? 'nothing'
                      : worker.runs.map((run, index) => (
                          <span key={run.run_id}>
                            {index > 0 && ', '}
                            <a href={paths.experiments.run(run.run_id)}>{run.run_id}</a> ({kindName(run.kind)}
                            {run.state === 'waiting' ? ', waiting for room' : ''}
                            {run.attempt > 1 ? `, attempt ${run.attempt}` : ''})
                          </span>
                        ))}
                    {worker.waiting_reason && <span className="muted"> — {worker.waiting_reason}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
