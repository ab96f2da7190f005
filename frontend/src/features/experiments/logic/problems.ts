import type { ProblemDetail } from '../api/types';

/** One thing the API refused: field is the dotted path it concerns ('' for the request as a whole). */
export interface Problem {
  field: string;
  message: string;
}

/** A form control and the scenario paths it sets. */
export interface ProblemTarget {
  name: string;
  paths: string[];
}

export interface PlacedProblems {
  /** Problems by the name of the control they belong beside. */
  byTarget: Record<string, string[]>;
  /** Problems no control owns, shown above the form; each sentence names its field. */
  general: string[];
}

/** problemsOf reads a 422's detail: loc ["body", "flows", 0, "cc"] is the field flows.0.cc. */
export function problemsOf(detail: ProblemDetail[]): Problem[] {
  return detail.map(({ loc, msg }) => ({ field: loc.slice(loc[0] === 'body' ? 1 : 0).join('.'), message: msg }));
}

/**
 * placeProblems puts each problem beside the control that sets its field (the backend reports a
 * check across fields at the field it refuses: flows.0.cc for a cc its transport lacks): the
 * control with that path, else the control that sets an object the field lies in. The others
 * (a check of a whole object, a malformed override) are general.
 */
export function placeProblems(problems: Problem[], targets: ProblemTarget[]): PlacedProblems {
  const placed: PlacedProblems = { byTarget: {}, general: [] };
  const owner = (path: string) => targets.find((target) => target.paths.includes(path));
  for (const { field, message } of problems) {
    const target =
      (field ? owner(field) : undefined) ??
      targets.find((candidate) => candidate.paths.some((path) => field.startsWith(`${path}.`)));
    if (target) (placed.byTarget[target.name] ??= []).push(message);
    else placed.general.push(message);
  }
  return placed;
}
