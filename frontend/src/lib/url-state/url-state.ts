/**
 * Lab state in the URL's query string, so that an instructor can share a link to a preset (the
 * address itself is written by config/paths.ts).
 * A lab's state is a flat record; its defaults give each field's type, and a value in the URL that
 * does not parse as that type (or is not one of the allowed choices) falls back to the default.
 */

export type FlatState = Record<string, string | number>;

export type Choices<State extends FlatState> = Partial<Record<keyof State, readonly string[]>>;

/** readState reads the fields of defaults from a query string. */
export function readState<State extends FlatState>(
  search: string,
  defaults: State,
  choices: Choices<State> = {},
): State {
  const query = new URLSearchParams(search);
  const state: FlatState = { ...defaults };
  for (const [field, fallback] of Object.entries(defaults)) {
    const raw = query.get(field);
    if (raw === null) continue;
    if (typeof fallback === 'number') {
      const value = Number(raw);
      if (raw.trim() !== '' && Number.isFinite(value)) state[field] = value;
    } else {
      const allowed = choices[field as keyof State];
      if (!allowed || allowed.includes(raw)) state[field] = raw;
    }
  }
  return state as State;
}
