import type { ProblemDetail } from '../../../shared/runs';

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

/** A campaign's fixed overrides and matrix, by path: what its problems can be about. */
export interface CampaignPaths {
  set: Record<string, unknown>;
  matrix: Record<string, unknown>;
}

// The campaign's own sentences name no field in loc; they start with what they are about:
// "set flows.5.size_bytes=4: …", "matrix flows.0.cc=westwood (configuration 1): flows.0.cc: …",
// "configuration 1 (path.link_backend=netem): path.link_backend: …" (the host cannot run it),
// "scenario: flows.0.size_bytes: …" (the base scenario with the fixed overrides, without a matrix).
const setProblem = /^set ([^\s=]+)=/;
const scenarioProblem = /^(?:matrix .* \(configuration \d+\)|configuration \d+ \(.*\)|scenario): ([^\s:]+): /;

/** One path lies in the other (or they are the same): flows.0 and flows.0.cc. */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * campaignProblemsOf reads a 422 of POST api/campaigns: a problem with a field of the request
 * keeps it (matrix.flows.0.cc, iterations, set.seed); one with the scenario a configuration makes
 * goes to the matrix parameter that touches its field, else to the fixed override that does,
 * else it stays general (its sentence names the configuration and the field).
 */
export function campaignProblemsOf(detail: ProblemDetail[], paths: CampaignPaths): Problem[] {
  return problemsOf(detail).map(({ field, message }) => {
    const set = setProblem.exec(message);
    if (set) return { field: `set.${set[1]}`, message };
    const inScenario = scenarioProblem.exec(message);
    if (!inScenario || (field !== '' && field !== 'scenario')) return { field, message };
    const inner = inScenario[1];
    const parameter = Object.keys(paths.matrix).find((path) => related(path, inner));
    const fixed = Object.keys(paths.set).find((path) => related(path, inner));
    return { field: parameter ? `matrix.${parameter}` : fixed ? `set.${fixed}` : '', message };
  });
}
