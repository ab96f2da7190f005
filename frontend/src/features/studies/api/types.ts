import type { Schemas } from '../../../shared/api';

/**
 * What the satlab API says about studies (backend/satlab/api/routes/studies.py): the generated
 * schemas (src/shared/api/schema.d.ts) under the names the page uses; and what the static build
 * ships in studies.json (scripts/studies-asset.ts), the same shape without the configurations.
 */

/**
 * A configuration of a study: axis → level name (channel: optical, tunnel: S(5,100)); with
 * experiments, `experiment` names its experiment and an axis it does not vary has the level ''.
 */
export type Configuration = Record<string, string>;

/** The pseudo-axis that names a configuration's experiment (studies with experiments only). */
export const EXPERIMENT = 'experiment';

/** One experiment of a study: the axes it varies and their levels, and its part of the quick run (null: none). */
export type Experiment = Schemas['ExperimentPublic'];

/** Axis → levels: a selection of a study's configurations, or all of them. */
export type Selection = Record<string, string[]>;

export type Statistic = Schemas['PublishedFigurePublic']['statistic'];

/** A figure the study published (published.csv): its configuration, its metric (with its unit in the name), its value. */
export type PublishedFigure = Schemas['PublishedFigurePublic'];

/** One configuration of a study run, as the backend computes it (its one computation of the matrix). */
export type StudyConfiguration = Schemas['StudyConfigurationPublic'];

type Listed = Schemas['StudyPublic'];
type Computed = 'configurations' | 'quick_configurations';

/**
 * GET api/studies: a study recipe (labs/studies/<id>/), with the configurations of its full and
 * quick runs; the static studies.json has none (the backend computes them, and only a page with
 * the backend starts study runs).
 */
export type Study = Omit<Listed, Computed> & Partial<Pick<Listed, Computed>>;

/** GET api/studies/{id}, and each study of the static studies.json: with the report shipped with the recipe. */
export type StudyDetail = Study & Pick<Schemas['StudyDetail'], 'shipped_report'>;

/** GET api/studies (Study), and the static studies.json (StudyDetail). */
export interface StudyList<Item extends Study = Study> {
  data: Item[];
  count: number;
}

/** A study run: a campaign that ran a study (GET api/studies/{id}/runs). */
export type StudyRun = Schemas['CampaignPublic'];

/** One published figure beside satlab's (null where satlab has no value yet). */
export type ReportRow = Schemas['ReportRow'];

/** Every value satlab measured of one metric for one configuration. */
export type MetricFigures = Schemas['MetricFigures'];

/** What satlab measured for one configuration, per metric (see configurationMetrics for reports of the first format). */
export type ReportConfiguration = Schemas['ReportConfiguration'];

export type CheckComparison = Schemas['CheckComparison'];

/** One of the study's conclusions, checked on satlab's medians. */
export type ReportCheck = Schemas['ReportCheck'];

/** GET api/studies/{id}/report, and labs/studies/<id>/report.json. */
export type StudyReport = Schemas['StudyReport'];

/** POST api/studies/{id}/runs. */
export type StudyRunRequest = Schemas['StudyRunCreate'];
