/**
 * The widgets of a lab sheet, written in its Markdown as fenced blocks whose language names the
 * widget and whose body is JSON:
 *
 *     ```satlab-fec
 *     {"k": 5, "z": 20, "kind": "outage"}
 *     ```
 *
 * satlab-fec and satlab-channel preset the browser labs (any of their settings, as in their
 * addresses); satlab-run names a preset of labs/ with overrides and the reference run shipped with
 * the sheet. A block that does not parse becomes an invalid widget with a sentence saying why, so
 * that a mistake in a sheet shows where it is and never blanks the page.
 */

/** Every widget a sheet can hold, by the language of its fenced block. */
export const widgetLanguages = { 'satlab-fec': 'fec', 'satlab-channel': 'channel', 'satlab-run': 'run' } as const;

export type WidgetLanguage = keyof typeof widgetLanguages;
export type LabKind = 'fec' | 'channel';

/** A browser lab's settings: their defaults give each one's type; choices the strings a field allows. */
export interface LabSettings {
  defaults: Record<string, string | number>;
  choices: Partial<Record<string, readonly string[]>>;
}

/** What a satlab-run block asks for: the lab, its overrides, and the reference run shipped with the sheet. */
export interface RunBlock {
  /** A preset of labs/, by file name without .yaml (GET api/labs lists them). */
  lab: string;
  /** Overrides, dotted.path=value, as the console and `satlab run --set` take them. */
  set: string[];
  /** The reference run's id: labs/sheets/data/<reference>.json, charted when no backend is there. */
  reference: string | null;
}

export type WidgetBlock =
  | { kind: LabKind; preset: Record<string, string | number> }
  | { kind: 'run'; run: RunBlock }
  | { kind: 'invalid'; language: string; problem: string };

const labNames: Record<LabKind, string> = { fec: 'FEC lab', channel: 'channel lab' };

/** A preset's name (labs/<lab>.yaml) or a reference's id: lower-case words joined by hyphens. */
const identifier = /^[a-z0-9][a-z0-9-]*$/;

/** isWidgetLanguage says whether a fenced block is meant as a widget: every satlab-… language is, known or not. */
export const isWidgetLanguage = (language: string) => language.startsWith('satlab-');

const listed = (words: readonly string[]) => words.join(', ');

const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/** presetProblem says what a lab cannot take of a preset, or null: unknown settings, wrong types, choices not offered. */
export function presetProblem(language: string, lab: LabKind, preset: Record<string, unknown>, settings: LabSettings): string | null {
  const known = Object.keys(settings.defaults);
  for (const [field, value] of Object.entries(preset)) {
    if (!(field in settings.defaults)) {
      return `The ${language} block sets "${field}", which is not a setting of the ${labNames[lab]}; its settings are ${listed(known)}.`;
    }
    const type = typeof settings.defaults[field];
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value))) {
      return `The ${language} block sets "${field}" to ${show(value)}; the ${labNames[lab]}'s ${field} is a ${type}.`;
    }
    const allowed = settings.choices[field];
    if (allowed && !allowed.includes(value as string)) {
      return `The ${language} block sets "${field}" to ${show(value)}; allowed: ${listed(allowed)}.`;
    }
  }
  return null;
}

function runBlock(language: string, body: Record<string, unknown>): RunBlock | string {
  const fields = ['lab', 'set', 'reference'];
  const unknown = Object.keys(body).find((field) => !fields.includes(field));
  if (unknown !== undefined) return `The ${language} block has "${unknown}", which it does not know; it takes ${listed(fields)}.`;
  const { lab, set = [], reference = null } = body;
  if (typeof lab !== 'string' || !identifier.test(lab)) {
    return `The ${language} block needs "lab", the name of a preset of labs/ such as "geo-ideal"; it has ${show(lab)}.`;
  }
  if (!Array.isArray(set) || set.some((assignment) => typeof assignment !== 'string' || !/^[^=\s]+=/.test(assignment))) {
    return `The ${language} block's "set" must be a list of overrides written dotted.path=value, such as ["flows.0.cc=bbr"]; it has ${show(set)}.`;
  }
  if (reference !== null && (typeof reference !== 'string' || !identifier.test(reference))) {
    return `The ${language} block's "reference" must name a file of labs/sheets/data/ without .json, such as "optical-cubic"; it has ${show(reference)}.`;
  }
  return { lab, set: set as string[], reference };
}

/** parseWidgetBlock reads one fenced block of a sheet into its widget, or an invalid widget that says why. */
export function parseWidgetBlock(language: string, text: string, labs: Record<LabKind, LabSettings>): WidgetBlock {
  const invalid = (problem: string): WidgetBlock => ({ kind: 'invalid', language, problem });
  if (!(language in widgetLanguages)) {
    return invalid(`"${language}" is not a widget of the lab sheets; they have ${listed(Object.keys(widgetLanguages))}.`);
  }
  const kind = widgetLanguages[language as WidgetLanguage];
  let body: unknown;
  try {
    body = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (error) {
    return invalid(`The ${language} block is not JSON: ${(error as Error).message}.`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid(`The ${language} block must be one JSON object, such as ${kind === 'run' ? '{"lab": "geo-ideal"}' : '{"k": 5, "z": 20}'}.`);
  }
  const fields = body as Record<string, unknown>;
  if (kind === 'run') {
    const run = runBlock(language, fields);
    return typeof run === 'string' ? invalid(run) : { kind, run };
  }
  const problem = presetProblem(language, kind, fields, labs[kind]);
  return problem ? invalid(problem) : { kind, preset: fields as Record<string, string | number> };
}

/** runCommand is the command line that makes the same run as a satlab-run block. */
export const runCommand = ({ lab, set }: RunBlock) =>
  [`satlab run labs/${lab}.yaml`, ...set.map((assignment) => `--set '${assignment}'`)].join(' ');

/** The satlab-… fenced blocks of a sheet's Markdown, in order: what a build checks, and what the page mounts. */
export function widgetBlocksIn(markdown: string): { language: string; text: string }[] {
  return [...markdown.matchAll(/^```(satlab-\S*)[^\S\n]*\n([\s\S]*?)^```[^\S\n]*$/gm)].map(([, language, text]) => ({
    language,
    text: text.trim(),
  }));
}
