import type { Run } from '../api/types';
import { useBackend } from '../hooks/use-backend';
import { type ConsoleSection, consoleSection, sectionHref } from '../hooks/use-campaign-in-url';
import { useRunInUrl } from '../hooks/use-run-in-url';
import { useRuns } from '../hooks/use-runs';
import { CampaignsSection } from './campaigns-section';
import { RunForm } from './run-form';
import { RunPanel } from './run-panel';
import { RunsList } from './runs-list';

const RUNS_PER_PAGE = 12;

/**
 * ExperimentConsole runs the labs' scenarios on the satlab backend (real namespaces, links and
 * transports) and shows them live, one run at a time or as campaigns that compare configurations;
 * it needs the backend's API beside the page.
 */
export function ExperimentConsole() {
  const backend = useBackend();
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
  if (backend.status === 'failed') {
    return (
      <p className="error" role="alert">
        {backend.message}
      </p>
    );
  }
  const section = consoleSection();
  return (
    <>
      <ConsoleSections current={section} />
      {section === 'campaigns' ? <CampaignsSection {...backend} /> : <SingleRuns {...backend} />}
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
            <a href={sectionHref(section.id)} aria-current={section.id === current ? 'page' : undefined}>
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** SingleRuns is the console's first section: the run form, the run on show, and the stored runs. */
function SingleRuns({ capabilities, labs }: Extract<ReturnType<typeof useBackend>, { status: 'ready' }>) {
  const [runId, openRun] = useRunInUrl();
  const runs = useRuns(RUNS_PER_PAGE);
  const started = (run: Run) => {
    openRun(run.run_id);
    runs.setPage(0);
    runs.refresh();
  };
  return (
    <div className="lab">
      <RunForm capabilities={capabilities} labs={labs} onStarted={started} />
      <div className="lab-stage">
        {runId ? (
          <RunPanel key={runId} runId={runId} />
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
          onOpen={openRun}
          onRefresh={runs.refresh}
        />
      </div>
    </div>
  );
}
