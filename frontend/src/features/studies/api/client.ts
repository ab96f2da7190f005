import { apiUrl, postJson, request, type Schemas } from '../../../shared/api';
import type { StudyDetail, StudyList, StudyReport, StudyRun, StudyRunRequest } from './types';

/** Where the static build keeps the studies (scripts/studies-asset.ts): beside index.html. */
export const STATIC_STUDIES = 'studies.json';

const study = (id: string) => `studies/${encodeURIComponent(id)}`;

/** campaignQuery restricts a report to some study runs (none: the API's choice, every full run). */
const campaignQuery = (campaignIds: string[]) =>
  campaignIds.length > 0 ? `?${campaignIds.map((id) => `campaign=${encodeURIComponent(id)}`).join('&')}` : '';

export const listStudies = () => request<StudyList>('studies');
export const getStudy = (id: string) => request<StudyDetail>(study(id));
export const listStudyRuns = (id: string) => request<Schemas['StudyRunsPublic']>(`${study(id)}/runs`);
export const getStudyReport = (id: string, campaignIds: string[]) =>
  request<StudyReport>(`${study(id)}/report${campaignQuery(campaignIds)}`);

/** studyReportCsvUrl is where the API exports a report as CSV, one row per published figure. */
export const studyReportCsvUrl = (id: string, campaignIds: string[]) => apiUrl(`${study(id)}/report.csv${campaignQuery(campaignIds)}`);

/** startStudyRun starts a study run (a campaign); a 422 ApiError names each unknown axis or level. */
export const startStudyRun = (id: string, run: StudyRunRequest) => request<StudyRun>(`${study(id)}/runs`, postJson(run));

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
