import type { CampaignSpec, Scenario } from '../../../shared/runs';
import { hystartApplies, isDottedPath, parseExtra } from './overrides';
import { parseValue, parseValueList } from './parameter-values';
import type { ProblemTarget } from './problems';

/** One parameter of the matrix as typed: a dotted path, and its values separated by commas. */
export interface MatrixRow {
  path: string;
  values: string;
}

/** The campaign form's fields. */
export interface CampaignChoices {
  /** The campaign's name; the lab's when blank. */
  name: string;
  /** The base scenario: a lab of labs/. */
  lab: string;
  /** Fixed overrides, one dotted.path=value per line. */
  fixed: string;
  matrix: MatrixRow[];
  iterations: number;
  /** Runs at once. */
  parallel: number;
  seed: number;
}

/** Three iterations give a box plot something to show; one run at a time keeps runs from sharing cores. */
export const initialCampaignChoices = (lab: string): CampaignChoices => ({
  name: '',
  lab,
  fixed: '',
  matrix: [{ path: '', values: '' }],
  iterations: 3,
  parallel: 1,
  seed: 1,
});

/** The campaign the form describes, and what is wrong with it before anything is sent. */
export interface CampaignPlan {
  /** The body of POST api/campaigns. */
  request: CampaignSpec;
  /** Configurations (the matrix's Cartesian product) and runs (× iterations). */
  configurations: number;
  runs: number;
  /** The flows.N.hystart the console set to null (see hystartToClear). */
  hystartCleared: string[];
  /** Problems found here, by control: fixed, path-N, values-N (N counts matrix rows from 0). */
  problems: Record<string, string[]>;
  /** The controls and the request paths they set, for placing the API's problems. */
  targets: ProblemTarget[];
}

const flowChoice = /^flows\.(\d+)\.(?:transport|cc)$/;

/**
 * hystartToClear lists the flows.N.hystart to set to null: the lab sets CUBIC's Hystart for flow
 * group N, which the scenario accepts for tcp cubic only, and the matrix runs that group with
 * another transport or congestion control in some configuration (as the run form does when its
 * controls leave tcp cubic). A flows.N.hystart the user sets is left to them.
 */
export function hystartToClear(lab: Scenario, set: Record<string, unknown>, matrix: Record<string, unknown[]>): string[] {
  const groups = [...new Set(Object.keys(matrix).flatMap((path) => flowChoice.exec(path)?.[1] ?? []))].map(Number);
  return groups
    .sort((a, b) => a - b)
    .filter((group) => {
      const flow = lab.flows[group];
      const hystart = `flows.${group}.hystart`;
      if (!flow || flow.hystart === null || Object.hasOwn(set, hystart) || Object.hasOwn(matrix, hystart)) return false;
      const choices = (field: 'transport' | 'cc') => {
        const path = `flows.${group}.${field}`;
        return matrix[path] ?? [Object.hasOwn(set, path) ? set[path] : flow[field]];
      };
      return choices('transport').some((transport) => choices('cc').some((cc) => !hystartApplies(String(transport), String(cc))));
    })
    .map((group) => `flows.${group}.hystart`);
}

/**
 * campaignPlan turns the form into the API's request: fixed overrides and matrix values read as
 * YAML values, the Hystart the matrix requires cleared, the runs counted; and the problems found
 * on the way, each a sentence naming its control.
 */
export function campaignPlan(choices: CampaignChoices, lab: Scenario | null): CampaignPlan {
  const problems: Record<string, string[]> = {};
  const complain = (control: string, problem: string) => (problems[control] ??= []).push(problem);

  const fixed = parseExtra(choices.fixed, 'Fixed overrides');
  fixed.problems.forEach((problem) => complain('fixed', problem));
  const set: Record<string, unknown> = {};
  fixed.overrides.forEach((override, index) => {
    const path = fixed.paths[index];
    try {
      set[path] = parseValue(override.slice(path.length + 1));
    } catch (error) {
      complain('fixed', `Fixed overrides, ${path}: ${(error as Error).message}.`);
    }
  });

  const matrix: Record<string, unknown[]> = {};
  const rowTargets: ProblemTarget[] = [];
  choices.matrix.forEach((row, index) => {
    const path = row.path.trim();
    if (path === '' && row.values.trim() === '') return;
    const parameter = `parameter ${index + 1}`;
    const pathProblem =
      path === ''
        ? `Path of ${parameter}: give the dotted path its values go to (e.g. flows.0.cc).`
        : !isDottedPath(path)
          ? `Path of ${parameter}: "${path}" is not a dotted path (e.g. flows.0.cc).`
          : Object.hasOwn(matrix, path)
            ? `Path of ${parameter}: ${path} is an earlier parameter too; give each path once.`
            : Object.hasOwn(set, path)
              ? `Path of ${parameter}: ${path} is a fixed override too; give each path in one of them.`
              : null;
    if (pathProblem) complain(`path-${index}`, pathProblem);
    let values: unknown[] = [];
    try {
      values = parseValueList(row.values);
      if (values.length === 0) complain(`values-${index}`, `Values of ${parameter}: give one or more, separated by commas (e.g. cubic, bbr).`);
    } catch (error) {
      complain(`values-${index}`, `Values of ${parameter}: ${(error as Error).message}.`);
    }
    if (pathProblem === null) {
      matrix[path] = values;
      rowTargets.push({ name: `values-${index}`, paths: [`matrix.${path}`] });
    }
  });

  const hystartCleared = lab ? hystartToClear(lab, set, matrix) : [];
  for (const path of hystartCleared) set[path] = null;
  const configurations = Object.values(matrix).reduce((product, values) => product * values.length, 1);
  return {
    request: {
      name: choices.name.trim() || choices.lab,
      scenario: choices.lab,
      set,
      matrix,
      iterations: choices.iterations,
      parallel: choices.parallel,
      seed: choices.seed,
    },
    configurations,
    runs: configurations * choices.iterations,
    hystartCleared,
    problems,
    targets: [
      { name: 'name', paths: ['name'] },
      { name: 'lab', paths: ['scenario'] },
      { name: 'fixed', paths: Object.keys(set).map((path) => `set.${path}`) },
      ...rowTargets,
      { name: 'iterations', paths: ['iterations'] },
      { name: 'parallel', paths: ['parallel'] },
      { name: 'seed', paths: ['seed'] },
    ],
  };
}
