import type { CampaignSpec, Scenario } from '../../../shared/runs';
import type { CampaignChoices } from './campaign-request';
import { type RunChoices, labChoices } from './overrides';

/**
 * Loading a stored run or campaign back into its form: the run's scenario becomes its lab plus the
 * controls' values plus the remaining differences as overrides; a campaign's file becomes the
 * campaign form's fields. Either way the form then shows, and would send, what the stored one ran.
 */

const plainWord = /^[A-Za-z_][\w./-]*$/;
const yamlWords = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', '~']);

/** formValue writes a value as the forms read it back (a YAML scalar or flow value): words bare, other text quoted, the rest JSON. */
export function formValue(value: unknown): string {
  if (typeof value === 'string') return plainWord.test(value) && !yamlWords.has(value.toLowerCase()) ? value : JSON.stringify(value);
  return value === undefined ? 'null' : JSON.stringify(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * scenarioChanges lists, as dotted.path=value overrides, where `to` differs from `from`: leaf by
 * leaf through objects (an object where `from` has none is written field by field, its null
 * fields left out as the defaults they are) and lists of the same length; a list of another
 * length as a whole.
 */
export function scenarioChanges(from: unknown, to: unknown, path = ''): string[] {
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (isObject(to) && (isObject(from) || from === null || from === undefined)) {
    const base = isObject(from) ? from : {};
    return Object.keys(to).flatMap((key) =>
      !isObject(from) && to[key] === null ? [] : scenarioChanges(base[key], to[key], at(key)),
    );
  }
  if (Array.isArray(to) && Array.isArray(from) && to.length === from.length) {
    return to.flatMap((item, index) => scenarioChanges(from[index], item, at(index)));
  }
  return JSON.stringify(from) === JSON.stringify(to) ? [] : [`${path}=${formValue(to)}`];
}

/** The paths the run form's controls set (overrides.ts): their differences show in the controls, not as extra lines. */
const controlled = /^(?:name|description|flows\.0\.(?:transport|cc|hystart|size_bytes|duration_s|count)|tunnel\.[kz])$/;

/** cloneChoices sets the run form's controls to a stored run's scenario, and the rest of what differs from the lab as extra lines. */
export function cloneChoices(lab: Scenario, run: Scenario): RunChoices {
  const choices = labChoices(run);
  const rest = scenarioChanges(lab, run).filter((override) => !controlled.test(override.slice(0, override.indexOf('='))));
  return { ...choices, extra: rest.join('\n') };
}

/** campaignChoices are the campaign form's fields for a stored campaign; null for a campaign of an inline scenario, which the form cannot hold. */
export function campaignChoices(spec: CampaignSpec): CampaignChoices | null {
  if (typeof spec.scenario !== 'string') return null;
  return {
    name: spec.name,
    lab: spec.scenario,
    fixed: Object.entries(spec.set ?? {})
      .map(([path, value]) => `${path}=${formValue(value)}`)
      .join('\n'),
    matrix: Object.entries(spec.matrix ?? {}).map(([path, values]) => ({ path, values: values.map(formValue).join(', ') })),
    ...(Object.keys(spec.matrix ?? {}).length === 0 && { matrix: [{ path: '', values: '' }] }),
    iterations: spec.iterations,
    parallel: spec.parallel,
    seed: spec.seed,
  };
}
