import { useRef, useState } from 'react';
import { type ConsoleSection, inAddress, paths } from '../../../config/paths';
import { type Run, BackendConnectionContext, RunPanel } from '../../../shared/runs';
import { type Session, useSession } from '../../../shared/session';
import { type Backend, useBackend } from '../hooks/use-backend';
import { useRunInUrl } from '../hooks/use-run-in-url';
import { useRuns } from '../hooks/use-runs';
import { BackendLost } from './backend-lost';
import { CampaignsSection } from './campaigns-section';
import { RunAdmin } from './run-admin';
import { RunForm } from './run-form';
import { RunsList } from './runs-list';
import { RunsOverlay } from './runs-overlay';
import { WorkersPanel } from './workers-panel';

const RUNS_PER_PAGE = 12;

/**
 * ExperimentConsole runs the labs' scenarios on the satlab backend (real namespaces, links and
 * transports) and shows them live, one run at a time or as campaigns that compare configurations;
 * it needs the backend's API beside the page.
 */
export function ExperimentConsole() {
  const { backend, connection, retry, retryAt } = useBackend();
  return (
    <BackendConnectionContext.Provider value={connection}>
      {connection.lost && <BackendLost retryAt={retryAt} onRetry={retry} />}
      <ConsoleBody backend={backend} />
    </BackendConnectionContext.Provider>
  );
}

/** ConsoleBody is the console once the backend answered: what it needs of it, or its sections. */
function ConsoleBody({ backend }: { backend: Backend }) {
  const session = useSession();
  if (backend.status === 'checking') return <p role="status">Looking for the satlab backend…</p>;
  if (backend.status === 'missing') {
    return (
      <section className="panel notice-panel" aria-labelledby="backend-missing">
        <h2 id="backend-missing">Experiments need the satlab backend</h2>
        <p>
          This page is served without it, so there is nothing here to run experiments on. From a clone of satlab, as root,{' '}
          <code>make run</code> builds everything and serves these labs with the backend on http://127.0.0.1:8000/ (or{' '}
          <code>docker compose up</code>). The FEC and channel labs above work without it.
        </p>
        <p className="muted">{backend.message}</p>
      </section>
    );
  }
  if (backend.status === 'sign-in') {
    return (
      <section className="panel notice-panel" aria-labelledby="sign-in-first">
        <h2 id="sign-in-first">Experiments need you to sign in</h2>
        <p>
          This server wants to know who runs what: <a href={paths.page('sign-in')}>sign in</a> as the instructor, or join the class with
          its code. The FEC and channel labs and the Studies page work without it.
        </p>
      </section>
    );
  }
  if (backend.status === 'failed') {
    return (
      <p className="error" role="alert">
        {backend.message}
      </p>
    );
  }
  const section = inAddress.consoleSection();
  return (
    <>
      <ConsoleSections current={section} />
      {section === 'campaigns' ? <CampaignsSection {...backend} session={session} /> : <SingleRuns {...backend} session={session} />}
      <WorkersPanel />
    </>
  );
}

const sections: { id: ConsoleSection; title: string }[] = [
  { id: 'runs', title: 'Single runs' },
  { id: 'campaigns', title: 'Campaigns' },
];

/** ConsoleSections switches between single runs and campaigns by link, so that each has its own address. */
function ConsoleSections({ current }: { current: ConsoleSection }) {
  return (
    <nav className="console-sections" aria-label="Console">
      <ul>
        {sections.map((section) => (
          <li key={section.id}>
            <a href={paths.experiments.section(section.id)} aria-current={section.id === current ? 'page' : undefined}>
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** SingleRuns is the console's first section: the run form, the run on show, and the stored runs. */
function SingleRuns({ capabilities, labs, limits, session }: Extract<Backend, { status: 'ready' }> & { session?: Session }) {
  const [runId, openRun, closeRun] = useRunInUrl();
  const runs = useRuns(RUNS_PER_PAGE);
  const runsList = useRef<HTMLElement>(null);
  // A stored run loaded into the form: a new form (key) starts from it.
  const [clone, setClone] = useState<{ version: number; runId: string; lab: string; scenario: Run['scenario'] } | null>(null);
  const [compared, setCompared] = useState<string[]>([]);
  const [deleted, setDeleted] = useState<string | null>(null);
  const compare = (picked: string, on: boolean) =>
    setCompared((current) => (on ? [...current.filter((runId) => runId !== picked), picked] : current.filter((runId) => runId !== picked)));
  const isLab = (name: string) => labs.some((lab) => lab.name === name && lab.error === null);
  // Sharing and deleting are the instructor's (the API refuses students): a student is offered neither.
  const isInstructor = session?.me.role === 'instructor';
  const started = (run: Run) => {
    setDeleted(null);
    openRun(run.run_id);
    runs.setPage(0);
    runs.refresh();
  };
  const open = (next: string) => {
    setDeleted(null);
    openRun(next);
  };
  // A deleted run leaves the view for the runs list, which says so and takes the focus.
  const removed = (gone: string) => {
    closeRun();
    setDeleted(gone);
    setCompared((current) => current.filter((runId) => runId !== gone));
    runs.refresh();
    runsList.current?.focus();
  };
  return (
    <div className="lab">
      <RunForm
        key={clone?.version ?? 0}
        capabilities={capabilities}
        labs={labs}
        limits={limits}
        clone={clone ?? undefined}
        onStarted={started}
        session={session}
      />
      <div className="lab-stage">
        {runId ? (
          <RunPanel
            key={runId}
            runId={runId}
            canClone={(run) => isLab(run.name)}
            onClone={(run) =>
              setClone((current) => ({ version: (current?.version ?? 0) + 1, runId: run.run_id, lab: run.name, scenario: run.scenario }))
            }
            actions={isInstructor ? (run, finished) => <RunAdmin run={run} finished={finished} onDeleted={removed} /> : undefined}
          />
        ) : deleted ? (
          <p className="panel" role="status">
            Run {deleted} is deleted, with everything it stored.
          </p>
        ) : (
          <p className="panel muted">Start a run with the form, or open a stored one from the list below.</p>
        )}
        <RunsList
          list={runs.list}
          error={runs.error}
          page={runs.page}
          pageSize={runs.pageSize}
          onPage={runs.setPage}
          selected={runId}
          onOpen={open}
          onRefresh={runs.refresh}
          compared={compared}
          onCompare={compare}
          showOwner={isInstructor}
          ref={runsList}
        />
        {compared.length > 0 && <RunsOverlay runIds={compared} onClear={() => setCompared([])} />}
      </div>
    </div>
  );
}
