import tunnelLimits from './tunnel-limits.json';

/**
 * The S(k,z) codes a form accepts, in one table: k and z within the backend's limits (the
 * scenario's Tunnel, which GET api/limits/tunnel serves; k <= z), copied at build time into
 * tunnel-limits.json by `npm run generate-api` from the backend's OpenAPI document, since the
 * labs run without the backend; they lie within the codec's own (codec/include/swf.h: z up to
 * 4095). The symbol size is the codec's range (1 to 65535 bytes): the labs' payloads are not the
 * tunnel's packets. The browser labs refuse what the backend would, so that a code tried in a lab
 * can be run on the testbed as it is.
 */
export const codeLimits = {
  k: tunnelLimits.k,
  z: tunnelLimits.z,
  symbolBytes: { min: 1, max: 65535 },
} as const;

export type CodeField = keyof typeof codeLimits;

/** What is wrong with each field of a code, one sentence each; no key when nothing is. */
export type CodeProblems = Partial<Record<CodeField, string[]>>;

const names: Record<CodeField, string> = { k: 'k', z: 'z', symbolBytes: 'The symbol size' };

/** wholeNumberProblem says why value is not a whole number from min to max, naming it, or undefined when it is. */
export function wholeNumberProblem(name: string, value: number, { min, max }: { min: number; max: number }): string | undefined {
  return Number.isInteger(value) && value >= min && value <= max ? undefined : `${name} must be a whole number from ${min} to ${max}.`;
}

/** codeProblems checks the fields given, each against its range, and k against z. */
export function codeProblems(code: Partial<Record<CodeField, number>>): CodeProblems {
  const problems: CodeProblems = {};
  for (const [field, value] of Object.entries(code) as [CodeField, number][]) {
    const problem = wholeNumberProblem(names[field], value, codeLimits[field]);
    if (problem) problems[field] = [problem];
  }
  const { k, z } = code;
  if (k !== undefined && z !== undefined && !problems.k && !problems.z && k > z) {
    problems.k = [kAboveZ(k, z)];
  }
  return problems;
}

/** kAboveZ says why S(k,z) with k > z is refused. */
export function kAboveZ(k: number, z: number): string {
  return `k (${k}) must be at most z (${z}): a repair covers only the last z sources, so with k > z some sources would be in no repair's window.`;
}

/** hasProblems is true when any field has a problem. */
export const hasProblems = (problems: Partial<Record<string, string[]>>) =>
  Object.values(problems).some((list) => list !== undefined && list.length > 0);
