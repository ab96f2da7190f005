import type { Campaign } from '../../../shared/runs';

/**
 * What the satlab API says about studies (backend/satlab/api/routes/studies.py), and what the
 * static build ships in studies.json in the same shape (scripts/studies-asset.ts).
 */

/**
 * A configuration of a study: axis → level name (channel: optical, tunnel: S(5,100)); with
 * experiments, `experiment` names its experiment and an axis it does not vary has the level ''.
 */
export type Configuration = Record<string, string>;

/** The pseudo-axis that names a configuration's experiment (studies with experiments only). */
export const EXPERIMENT = 'experiment';

/** One experiment of a study: the axes it varies and their levels, and its part of the quick run (null: none). */
export interface Experiment {
  title: string;
  axes: Selection;
  quick: Selection | null;
}

/** Axis → levels: a selection of a study's configurations, or all of them. */
export type Selection = Record<string, string[]>;

export type Statistic = 'median' | 'mean' | 'std';

/** A figure the study published (published.csv): its configuration, its metric (with its unit in the name), its value. */
export interface PublishedFigure {
  configuration: Configuration;
  metric: string;
  statistic: Statistic;
  value: number;
  /** Where the study gives it: Table II, Figure 3. */
  source: string;
}

/** GET api/studies: a study recipe (labs/studies/<id>/). */
export interface Study {
  id: string;
  title: string;
  citation: string;
  url: string | null;
  /** What the study found, in a paragraph. */
  summary: string;
  /** Axis → its levels, in order. */
  axes: Selection;
  /** Of a full run. */
  iterations: number;
  /** Runs at once. */
  parallel: number;
  /** The smoke run: a few configurations that finish fast, few iterations. */
  quick: { only: Selection; iterations: number };
  /** Its experiments, by name, in order; none: the study is one experiment over every axis. */
  experiments: Record<string, Experiment>;
  /** The metrics the study compares (download_time_s, download_goodput_mbps: the unit in the name). */
  metrics: string[];
  checks: { id: string; statement: string }[];
  published: PublishedFigure[];
  has_shipped_report: boolean;
}

/** GET api/studies/{id}, and each study of the static studies.json: with the report shipped with the recipe. */
export interface StudyDetail extends Study {
  shipped_report: StudyReport | null;
}

/** GET api/studies (Study), and the static studies.json (StudyDetail). */
export interface StudyList<Item extends Study = Study> {
  data: Item[];
  count: number;
}

/** A study run: a campaign that ran a study (GET api/studies/{id}/runs). */
export interface StudyRun extends Campaign {
  study: string;
  study_quick: boolean;
}

/** One published figure beside satlab's (null where satlab has no value yet). */
export interface ReportRow {
  configuration: Configuration;
  metric: string;
  statistic: Statistic;
  /** null: a figure satlab measured that the study did not publish. */
  published: number | null;
  source: string;
  /** satlab's figure of the same statistic (its median for a median). */
  satlab: number | null;
  q1: number | null;
  q3: number | null;
  /** Runs that gave a value. */
  n: number;
  failed: number;
  /** satlab / published. */
  ratio: number | null;
  /** The band a median must be in (±5 %, within ×1.5 either way), null for other statistics. */
  band: string | null;
  band_reason: string | null;
  in_band: boolean | null;
}

/** Every value satlab measured of one metric for one configuration. */
export interface MetricFigures {
  values: number[];
  n: number;
  median: number | null;
  q1: number | null;
  q3: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

/**
 * What satlab measured for one configuration, per metric. (Reports of the first format, before
 * metrics beyond download time, have one metric's figures at the top: see configurationMetrics.)
 */
export interface ReportConfiguration {
  configuration: Configuration;
  failed: number;
  /** Absent from reports of the first format. */
  metrics?: Record<string, MetricFigures>;
}

export interface CheckComparison {
  numerator: Configuration;
  /** null: the bound is on the numerator's median itself. */
  denominator: Configuration | null;
  numerator_median: number | null;
  denominator_median: number | null;
  ratio: number | null;
  /** null: a median is missing. */
  holds: boolean | null;
}

/**
 * One of the study's conclusions: every comparison's ratio of medians (without a denominator, the
 * median itself) must be ≥ at_least and ≤ at_most.
 */
export interface ReportCheck {
  id: string;
  statement: string;
  metric: string;
  at_least: number | null;
  at_most: number | null;
  holds: boolean | null;
  comparisons: CheckComparison[];
}

/** GET api/studies/{id}/report, and labs/studies/<id>/report.json. */
export interface StudyReport {
  study: string;
  title: string;
  citation: string;
  /** Every column of a configuration and its levels: `experiment` first if the study has experiments. */
  axes: Selection;
  /** Experiment → its title (absent from reports of the first format). */
  experiments?: Record<string, string>;
  /** Metric → what it is and where it comes from (absent from reports of the first format). */
  metrics?: Record<string, string>;
  /** ISO 8601, UTC. */
  generated_at: string;
  satlab: string;
  git: string | null;
  /** The host and tool versions the runs ran with. */
  host: Record<string, string | number | null>;
  campaigns: (Pick<StudyRun, 'campaign_id' | 'name' | 'status' | 'study_quick' | 'spec' | 'created_at' | 'finished_at' | 'progress'>)[];
  /** Every run it covers was a quick one: a smoke test, not a result. */
  quick: boolean;
  rows: ReportRow[];
  configurations: ReportConfiguration[];
  checks: ReportCheck[];
  summary: {
    rows: number;
    measured: number;
    in_band: number;
    out_of_band: number;
    checks_held: number;
    checks_failed: number;
    checks_unknown: number;
  };
}

/** POST api/studies/{id}/runs. */
export interface StudyRunRequest {
  quick: boolean;
  only: Selection;
  iterations?: number;
  parallel?: number;
}
