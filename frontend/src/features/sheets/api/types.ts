import type { RunResult, RunSamples, Scenario } from '../../../shared/runs';

/** One lab sheet of labs/sheets/, as the build ships it (scripts/sheets-asset.ts). */
export interface Sheet {
  /** The file's name without its order number and .md: 03-loss-is-not-congestion.md is loss-is-not-congestion. */
  id: string;
  /** The sheet's first heading. */
  title: string;
  /** The paragraph under its "Goal" heading, on one line. */
  goal: string;
  /** The sheet's Markdown after its title, with its widget blocks. */
  markdown: string;
}

export interface SheetList {
  data: Sheet[];
  count: number;
}

/**
 * A reference run shipped with a sheet (labs/sheets/data/<id>.json, made by
 * labs/sheets/reference_runs.py): a real run's scenario, result and samples, in the API's shapes,
 * the samples thinned to a few per second.
 */
export interface ReferenceRun {
  reference: string;
  /** The sheet file whose satlab-run block it was made from. */
  sheet: string;
  lab: string;
  set: string[];
  /** The command line that made it. */
  command: string;
  run_id: string;
  /** Unix time, seconds. */
  made_at: number;
  /** satlab's version and git commit, the kernel, the machine. */
  provenance: Record<string, string | number | null>;
  scenario: Scenario & { path?: { forward?: { rate_mbps?: number } } };
  result: RunResult;
  samples: RunSamples;
}
