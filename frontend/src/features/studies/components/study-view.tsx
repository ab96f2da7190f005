import { useEffect } from 'react';
import { paths } from '../../../config/paths';
import { CampaignProgressBar } from '../../../shared/runs';
import { studyReportCsvUrl } from '../api/client';
import type { Study, StudyDetail } from '../api/types';
import { useReportChoice } from '../hooks/use-report-choice';
import { useRunReport, useStudyReport } from '../hooks/use-run-report';
import { useShippedReport } from '../hooks/use-studies';
import { useStudyReadme } from '../hooks/use-study-readme';
import { useStudyRuns } from '../hooks/use-study-runs';
import { mustSignIn, useSession } from '../../../shared/session';
import { ReportView } from './report-view';
import { StudyReadme } from './study-readme';
import { StudyRunForm } from './study-run-form';
import { StudyRuns } from './study-runs';

export interface StudyViewProps {
  study: Study | StudyDetail;
  /** Whether the satlab backend is here: runs start and reports come live from it. */
  backend: boolean;
}

/** StudyView is one study: what it found, a run to start, its runs, and the report on show. */
export function StudyView({ study, backend }: StudyViewProps) {
  const { runs, failure, refresh } = useStudyRuns(study.id, backend);
  const [choice, choose] = useReportChoice();
  const shown = choice ?? (study.has_shipped_report ? 'shipped' : (runs[0]?.campaign_id ?? 'shipped'));
  const readme = useStudyReadme(study);
  // Study runs are the instructor's (the API refuses anyone else): the form is offered to them alone.
  const session = useSession();
  const mayRun = session === undefined || session.me.role === 'instructor';
  return (
    <article className="study" aria-labelledby={`study-${study.id}`}>
      <header className="panel study-header">
        <h2 id={`study-${study.id}`}>{study.title}</h2>
        <p className="citation">
          {study.citation}
          {study.url && (
            <>
              {' '}
              <a href={study.url}>The paper</a>
            </>
          )}
        </p>
        <h3>What the study found</h3>
        <p>{study.summary}</p>
        {Object.keys(study.experiments ?? {}).length > 0 && (
          <>
            <h3>What satlab runs of it</h3>
            <ul className="study-experiments" aria-label="Experiments">
              {Object.entries(study.experiments).map(([name, experiment]) => (
                <li key={name}>
                  {experiment.title} <span className="experiment-name">({name})</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </header>
      {backend && (
        <div className="study-runs-row">
          {mayRun ? (
            <StudyRunForm
              study={study}
              onStarted={(run) => {
                choose(run.campaign_id);
                refresh();
              }}
            />
          ) : (
            <p className="panel notice" role="note">
              Study runs are the instructor&apos;s: they take hours of the machine the class shares.{' '}
              {session && mustSignIn(session.me) ? (
                <>
                  <a href={paths.page('sign-in')}>Sign in</a> as the instructor to start one;
                </>
              ) : (
                'Signed in as a student, you'
              )}{' '}
              see every study run and its report here.
            </p>
          )}
          <StudyRuns runs={runs} shipped={study.has_shipped_report} shown={shown} onChoose={choose} failure={failure} />
        </div>
      )}
      {shown === 'shipped' ? (
        <ShippedReport study={study} />
      ) : shown === 'full' ? (
        <FullRunsReport study={study} />
      ) : (
        <RunReport key={shown} study={study} campaignId={shown} onStatus={refresh} />
      )}
      {readme && <StudyReadme studyId={study.id} markdown={readme} />}
    </article>
  );
}

function ShippedReport({ study }: { study: Study | StudyDetail }) {
  const shipped = useShippedReport(study);
  if (shipped.status === 'loading') return <p role="status">Loading the report shipped with the recipe…</p>;
  if (shipped.status === 'failed') {
    return (
      <p className="error" role="alert">
        {shipped.message}
      </p>
    );
  }
  return (
    <ReportView
      study={study}
      report={shipped.report}
      heading={shipped.report ? 'Report shipped with the recipe' : 'Published figures'}
    />
  );
}

/** FullRunsReport is the report of every full run of the study together (a run resumed, or run in parts). */
function FullRunsReport({ study }: { study: Study }) {
  const { report, failure } = useStudyReport(study.id, []);
  return (
    <>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      <ReportView study={study} report={report} heading="Report of every full study run" csvHref={studyReportCsvUrl(study.id, [])} />
    </>
  );
}

/** RunReport is the live report of one study run, with its progress while it runs; onStatus hears of each change of its status. */
function RunReport({ study, campaignId, onStatus }: { study: Study; campaignId: string; onStatus: () => void }) {
  const { report, failure, status, progress, reconnecting } = useRunReport(study.id, campaignId);
  useEffect(() => {
    if (status !== null) onStatus();
  }, [status, onStatus]);
  return (
    <>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      <ReportView study={study} report={report} heading={`Report of study run ${campaignId}`} csvHref={studyReportCsvUrl(study.id, [campaignId])}>
        <p className="run-status">
          Study run {campaignId}: <strong>{status ?? 'loading'}</strong>{' '}
          <a href={paths.experiments.campaign(campaignId)}>Its campaign in the experiment console</a>
        </p>
        {progress && <CampaignProgressBar progress={progress} label="Study run progress" />}
        {reconnecting && (
          <p className="notice" role="status">
            The live stream of this study run closed before it ended (was the backend restarted?): reconnecting… The progress shown is
            the last heard.
          </p>
        )}
      </ReportView>
    </>
  );
}
