/**
 * Values of campaign parameters as a person types them. A campaign's request carries the values
 * themselves (JSON), not text, so the console reads them the way the backend reads a `--set` value
 * (YAML): numbers, true and false, null (or ~), plain or quoted strings, and flow mappings and
 * sequences such as {k: 5, z: 100} — JSON being a special case of those.
 */

/** Text that is not a value; the message says what was expected, and where. */
export class ValueSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueSyntaxError';
  }
}

const number = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** plainScalar reads an unquoted word as YAML does: null, a boolean, a number, else the text itself. */
function plainScalar(text: string): unknown {
  if (/^(?:null|Null|NULL|~)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (number.test(text)) return Number(text);
  return text;
}

/** A reader of flow values over one text, from left to right. */
class FlowReader {
  private position = 0;

  constructor(private readonly text: string) {}

  get atEnd(): boolean {
    this.skipSpace();
    return this.position >= this.text.length;
  }

  /** value reads one value; a plain one ends before any of stops. */
  value(stops: string): unknown {
    this.skipSpace();
    const first = this.text[this.position];
    if (first === '{') return this.collection('}', stops);
    if (first === '[') return this.collection(']', stops);
    if (first === '"' || first === "'") return this.quoted();
    const start = this.position;
    while (this.position < this.text.length && !stops.includes(this.text[this.position])) this.position += 1;
    const plain = this.text.slice(start, this.position).trim();
    if (plain === '') this.fail('a value is missing');
    return plainScalar(plain);
  }

  /** expect consumes one of the characters, and says which. */
  expect(characters: string, after: string): string {
    this.skipSpace();
    const next = this.text[this.position];
    if (next === undefined || !characters.includes(next)) {
      const wanted = [...characters].map((character) => `"${character}"`).join(' or ');
      this.fail(`expected ${wanted} ${after}`);
    }
    this.position += 1;
    return next;
  }

  fail(what: string): never {
    const where = this.position >= this.text.length ? 'at the end' : `at character ${this.position + 1}`;
    throw new ValueSyntaxError(`${what} ${where} of "${this.text.trim()}"`);
  }

  private skipSpace() {
    while (/\s/.test(this.text[this.position] ?? '')) this.position += 1;
  }

  /** collection reads {key: value, …} (close "}") or [value, …] (close "]"). */
  private collection(close: '}' | ']', outerStops: string): unknown {
    this.position += 1;
    const mapping: Record<string, unknown> = {};
    const sequence: unknown[] = [];
    this.skipSpace();
    if (this.text[this.position] === close) {
      this.position += 1;
      return close === '}' ? mapping : sequence;
    }
    for (;;) {
      if (close === '}') {
        const key = this.value(':,{}[]');
        if (key === null || typeof key === 'object') this.fail('a key must be a word or a quoted string');
        this.expect(':', 'after a key');
        mapping[String(key)] = this.value(`,${close}`);
      } else {
        sequence.push(this.value(`,${close}`));
      }
      if (this.expect(`,${close}`, close === '}' ? 'in a {…} mapping' : 'in a […] list') === close) break;
    }
    const value = close === '}' ? mapping : sequence;
    this.skipSpace();
    // Inside a list of values a collection ends its value: "{k: 5} x" is a slip, not one word.
    if (this.position < this.text.length && !outerStops.includes(this.text[this.position])) this.fail(`unexpected text after ${close}`);
    return value;
  }

  /** quoted reads "…" (JSON's escapes) or '…' (YAML's: '' is a quote). */
  private quoted(): string {
    const quote = this.text[this.position];
    const start = this.position;
    this.position += 1;
    while (this.position < this.text.length) {
      const character = this.text[this.position];
      if (quote === '"' && character === '\\') {
        this.position += 2;
        continue;
      }
      if (character === quote) {
        if (quote === "'" && this.text[this.position + 1] === "'") {
          this.position += 2;
          continue;
        }
        this.position += 1;
        const body = this.text.slice(start, this.position);
        if (quote === "'") return body.slice(1, -1).replaceAll("''", "'");
        try {
          return JSON.parse(body) as string;
        } catch {
          this.position = start;
          this.fail('a quoted string has a bad escape');
        }
      }
      this.position += 1;
    }
    this.position = start;
    return this.fail(`a ${quote} is not closed`);
  }
}

/**
 * parseValue reads the value of one override (what follows `=`): unquoted text is one value,
 * commas and all, as on the command line; an empty value is the empty string.
 */
export function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  if (!/^[{["']/.test(trimmed)) return plainScalar(trimmed);
  const reader = new FlowReader(trimmed);
  const value = reader.value('');
  if (!reader.atEnd) reader.fail('unexpected text after the value');
  return value;
}

/** parseValueList reads comma-separated values (`cubic, bbr`; `null, {k: 5, z: 100}`); none in blank text. */
export function parseValueList(text: string): unknown[] {
  const values: unknown[] = [];
  if (text.trim() === '') return values;
  const reader = new FlowReader(text);
  do {
    values.push(reader.value(','));
  } while (!reader.atEnd && reader.expect(',', 'between values'));
  return values;
}

/** formatValue prints a value as the backend names configurations: text as it is, anything else as compact JSON. */
export const formatValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
