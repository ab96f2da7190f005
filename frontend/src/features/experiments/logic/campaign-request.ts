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
  request: Omit<CampaignSpec, 'description'>;
  /** Configurations (the matrix's Cartesian product) and runs (× iterations). */
  configurations: number;
  runs: number;
  /** The flow groups whose Hystart the matrix sets arm by arm (see hystartArms). */
  hystartArms: HystartArms[];
  /** Problems found here, by control: fixed, path-N, values-N (N counts matrix rows from 0). */
  problems: Record<string, string[]>;
  /** The controls and the request paths they set, for placing the API's problems. */
  targets: ProblemTarget[];
}

/**
 * A matrix entry that sets several fields of one place together, value by value (the backend's
 * joint entries, backend/satlab/service/campaign.py): "flows.0.{cc,hystart}", each value a mapping
 * of those fields, one arm.
 */
const jointEntry = /^(?:([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\.)?\{([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)+)\}$/;

/** matrixEntryPaths lists the dotted paths a matrix entry sets: itself, or each field of a joint entry. */
export function matrixEntryPaths(entry: string): string[] {
  const joint = jointEntry.exec(entry);
  if (!joint) return [entry];
  return joint[2].split(',').map((field) => (joint[1] ? `${joint[1]}.${field}` : field));
}

/** isMatrixPath tells whether text names a matrix entry: a dotted path, or a joint entry. */
export const isMatrixPath = (text: string) => isDottedPath(text) || jointEntry.test(text);

/** A flow group's Hystart set arm by arm: the lab's with tcp cubic, the host's (null) with anything else. */
export interface HystartArms {
  /** The joint entry that replaces the matrix's transport and cc rows of the group, e.g. flows.0.{cc,hystart}. */
  entry: string;
  /** The rows it replaces. */
  replaces: string[];
  /** One arm per combination of those rows' values, each with its hystart. */
  arms: Record<string, unknown>[];
  /** The lab's setting, which the tcp cubic arms keep. */
  labHystart: boolean;
}

const flowChoice = /^flows\.(\d+)\.(transport|cc)$/;

/**
 * hystartArms finds the flow groups whose Hystart the matrix must set arm by arm: the lab sets
 * CUBIC's Hystart for group N, which the scenario accepts for tcp cubic only, and the matrix runs
 * that group with another transport or congestion control in some configuration. Their transport
 * and cc rows become one joint entry whose arms keep the lab's Hystart with tcp cubic and leave it
 * to the host (null) otherwise: never a setting widened to arms it does not belong to. A Hystart
 * the user sets, in the fixed overrides or the matrix, is left to them.
 */
export function hystartArms(lab: Scenario, set: Record<string, unknown>, matrix: Record<string, unknown[]>): HystartArms[] {
  const matrixPaths = new Set(Object.keys(matrix).flatMap(matrixEntryPaths));
  const groups = [...new Set(Object.keys(matrix).flatMap((path) => flowChoice.exec(path)?.[1] ?? []))].map(Number);
  return groups
    .sort((a, b) => a - b)
    .flatMap((group): HystartArms[] => {
      const flow = lab.flows[group];
      const hystart = `flows.${group}.hystart`;
      if (!flow || flow.hystart === null || flow.hystart === undefined || Object.hasOwn(set, hystart) || matrixPaths.has(hystart)) return [];
      const fields = (['transport', 'cc'] as const).filter((field) => Object.hasOwn(matrix, `flows.${group}.${field}`));
      const fixed = (field: 'transport' | 'cc') => {
        const path = `flows.${group}.${field}`;
        return String(Object.hasOwn(set, path) ? set[path] : flow[field]);
      };
      let arms: Record<string, unknown>[] = [{}];
      for (const field of fields) arms = arms.flatMap((arm) => matrix[`flows.${group}.${field}`].map((value) => ({ ...arm, [field]: value })));
      const applies = (arm: Record<string, unknown>) =>
        hystartApplies(String(arm.transport ?? fixed('transport')), String(arm.cc ?? fixed('cc')));
      if (arms.every(applies)) return [];
      return [
        {
          entry: `flows.${group}.{${[...fields, 'hystart'].join(',')}}`,
          replaces: fields.map((field) => `flows.${group}.${field}`),
          arms: arms.map((arm) => ({ ...arm, hystart: applies(arm) ? flow.hystart : null })),
          labHystart: Boolean(flow.hystart),
        },
      ];
    });
}

/** withArms puts each joint entry in the place of the first row it replaces, and drops the others. */
function withArms(matrix: Record<string, unknown[]>, joints: HystartArms[]): Record<string, unknown[]> {
  const result: Record<string, unknown[]> = {};
  for (const [path, values] of Object.entries(matrix)) {
    const joint = joints.find((candidate) => candidate.replaces.includes(path));
    if (!joint) result[path] = values;
    else if (joint.replaces[0] === path) result[joint.entry] = joint.arms;
  }
  return result;
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
  /** The first path a matrix entry sets that an earlier entry sets too. */
  const twice = (entry: string) => matrixEntryPaths(entry).find((one) => Object.keys(matrix).flatMap(matrixEntryPaths).includes(one));
  choices.matrix.forEach((row, index) => {
    const path = row.path.trim();
    if (path === '' && row.values.trim() === '') return;
    const parameter = `parameter ${index + 1}`;
    const pathProblem =
      path === ''
        ? `Path of ${parameter}: give the dotted path its values go to (e.g. flows.0.cc).`
        : !isMatrixPath(path)
          ? `Path of ${parameter}: "${path}" is not a dotted path (e.g. flows.0.cc).`
          : twice(path)
            ? `Path of ${parameter}: ${twice(path)} is set by an earlier parameter too; give each path once.`
            : matrixEntryPaths(path).find((one) => Object.hasOwn(set, one))
              ? `Path of ${parameter}: ${matrixEntryPaths(path).find((one) => Object.hasOwn(set, one))} is a fixed override too; give each path in one of them.`
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
      rowTargets.push({ name: `values-${index}`, paths: [...new Set([path, ...matrixEntryPaths(path)])].map((one) => `matrix.${one}`) });
    }
  });

  const joints = lab ? hystartArms(lab, set, matrix) : [];
  for (const joint of joints) {
    const target = rowTargets.find((candidate) => candidate.paths.includes(`matrix.${joint.replaces[0]}`));
    if (target) target.paths = [...new Set([...target.paths, ...[joint.entry, ...matrixEntryPaths(joint.entry)].map((one) => `matrix.${one}`)])];
  }
  const configurations = Object.values(matrix).reduce((product, values) => product * values.length, 1);
  return {
    request: {
      name: choices.name.trim() || choices.lab,
      scenario: choices.lab,
      set,
      matrix: withArms(matrix, joints),
      iterations: choices.iterations,
      parallel: choices.parallel,
      seed: choices.seed,
    },
    configurations,
    runs: configurations * choices.iterations,
    hystartArms: joints,
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
