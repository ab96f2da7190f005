import { inAddress, paths } from '../../../config/paths';
import { useStudies } from '../hooks/use-studies';
import { StudyView } from './study-view';
import '../studies.css';

/**
 * StudiesPage shows published SATCOM studies rerun by satlab: each study's figures beside
 * satlab's, and which of its conclusions hold. With the backend it starts and follows study runs;
 * without one (a static copy of the site) it shows the published figures and the shipped report.
 */
export function StudiesPage() {
  const state = useStudies();
  if (state.status === 'loading') return <p role="status">Loading the studies…</p>;
  if (state.status === 'failed') {
    return (
      <p className="error" role="alert">
        {state.message}
      </p>
    );
  }
  const requested = inAddress.study();
  const study = state.studies.find((candidate) => candidate.id === requested) ?? state.studies[0];
  if (!study) return <p>There are no studies in labs/studies.</p>;
  return (
    <div className="studies">
      {!state.backend && (
        <section className="panel notice-panel" aria-labelledby="studies-static">
          <h2 id="studies-static">Served without the satlab backend</h2>
          <p>
            This copy of the site shows each study's published figures and the report shipped with its recipe. Starting a
            study run needs the backend: from a clone of satlab, as root, <code>make run</code> serves these pages with it.
          </p>
          <p className="muted">(The API's list of studies: {state.why}.)</p>
        </section>
      )}
      {state.studies.length > 1 && (
        <nav aria-label="Studies" className="console-sections">
          <ul>
            {state.studies.map((candidate) => (
              <li key={candidate.id}>
                <a href={paths.studies.study(candidate.id)} aria-current={candidate === study ? 'page' : undefined}>
                  {candidate.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <StudyView key={study.id} study={study} backend={state.backend} />
    </div>
  );
}
