import { apiUrl } from '../../experiments/api/api-url';
import { ApiError } from '../../experiments/api/client';
import type { StudyDetail, StudyList, StudyReport, StudyRun, StudyRunRequest } from './types';

/** Where the static build keeps the studies (scripts/studies-asset.ts): beside index.html. */
export const STATIC_STUDIES = 'studies.json';

/** No satlab API answers here (a static copy of the site); the message says what was tried. */
export class NoBackendError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'NoBackendError';
  }
}

/**
 * getJson fetches a JSON document. Without JSON in the answer (a static server's 404 or its
 * index.html where the API would be), or without an answer, there is no backend here.
 */
async function getJson<Body>(url: string, init?: RequestInit): Promise<Body> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  } catch (error) {
    throw new NoBackendError(`${url} could not be reached: ${String(error)}`);
  }
  if (!response.headers.get('content-type')?.includes('application/json')) {
    throw new NoBackendError(`${url} answered ${response.status} without JSON`);
  }
  const body = (await response.json()) as { detail?: unknown };
  if (!response.ok) throw new ApiError(response.status, body.detail);
  return body as Body;
}

const study = (id: string) => `studies/${encodeURIComponent(id)}`;

/** campaignQuery restricts a report to some study runs (none: the API's choice, every full run). */
const campaignQuery = (campaignIds: string[]) =>
  campaignIds.length > 0 ? `?${campaignIds.map((id) => `campaign=${encodeURIComponent(id)}`).join('&')}` : '';

export const listStudies = () => getJson<StudyList>(apiUrl('studies'));
export const getStudy = (id: string) => getJson<StudyDetail>(apiUrl(study(id)));
export const listStudyRuns = (id: string) => getJson<{ data: StudyRun[]; count: number }>(apiUrl(`${study(id)}/runs`));
export const getStudyReport = (id: string, campaignIds: string[]) =>
  getJson<StudyReport>(apiUrl(`${study(id)}/report${campaignQuery(campaignIds)}`));

/** studyReportCsvUrl is where the API exports a report as CSV, one row per published figure. */
export const studyReportCsvUrl = (id: string, campaignIds: string[]) => apiUrl(`${study(id)}/report.csv${campaignQuery(campaignIds)}`);

/** startStudyRun starts a study run (a campaign); a 422 ApiError names each unknown axis or level. */
export const startStudyRun = (id: string, run: StudyRunRequest) =>
  getJson<StudyRun>(apiUrl(`${study(id)}/runs`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(run),
  });

/**
 * getStaticStudies reads the studies as the static build ships them: the recipes with their
 * published figures and shipped reports. Any web server will do, whatever type it gives .json.
 */
export async function getStaticStudies(): Promise<StudyList<StudyDetail>> {
  const url = new URL(STATIC_STUDIES, document.baseURI).toString();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: this copy of the site was built without its studies`);
  return (await response.json()) as StudyList<StudyDetail>;
}
