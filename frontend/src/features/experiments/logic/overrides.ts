import type { Scenario, Tunnel } from '../../../shared/runs';

/**
 * The console's controls over a lab, and the `dotted.path=value` overrides they amount to (the
 * API's `set`, the CLI's `--set`): only what differs from the lab is sent, so that the run is the
 * lab plus a visible list of changes. The controls set the first flow group and the tunnel.
 */
export interface RunChoices {
  transport: string;
  cc: string;
  /** CUBIC's Hystart (tcp cubic only): on, off, or null to leave the host's setting. */
  hystart: boolean | null;
  /** Bytes to move; null while the lab's flow runs for a duration instead. */
  sizeBytes: number | null;
  /** Identical concurrent flows. */
  count: number;
  /** S(k,z) in a tunnel below the transport, or none. */
  tunnel: Pick<Tunnel, 'k' | 'z'> | null;
  /** More overrides, one dotted.path=value per line. */
  extra: string;
}

/** labChoices are the controls as the lab sets them. */
export function labChoices(lab: Scenario): RunChoices {
  const flow = lab.flows[0];
  return {
    transport: flow.transport,
    cc: flow.cc,
    hystart: flow.hystart,
    sizeBytes: flow.size_bytes,
    count: flow.count,
    tunnel: lab.tunnel && { k: lab.tunnel.k, z: lab.tunnel.z },
    extra: '',
  };
}

/** Hystart is a setting of Linux CUBIC only; the scenario refuses it elsewhere. */
export const hystartApplies = (transport: string, cc: string) => transport === 'tcp' && cc === 'cubic';

/** switchTransport picks a transport, keeping the congestion control where the transport has it. */
export function switchTransport(choices: RunChoices, transport: string, congestionControls: string[]): RunChoices {
  const cc = congestionControls.includes(choices.cc) ? choices.cc : (congestionControls[0] ?? choices.cc);
  return { ...choices, transport, cc };
}

const dottedPathPattern = '[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*';
const overrideLine = new RegExp(`^(${dottedPathPattern})\\s*=\\s*(.*)$`);
const dottedPath = new RegExp(`^${dottedPathPattern}$`);

/** isDottedPath tells whether text names a field as overrides do (flows.0.cc, path.forward.rate_mbps). */
export const isDottedPath = (text: string) => dottedPath.test(text);

export interface ExtraOverrides {
  overrides: string[];
  /** The dotted paths the lines set, in order. */
  paths: string[];
  /** A sentence per line that is not dotted.path=value. */
  problems: string[];
}

/**
 * parseExtra reads free-form overrides: one per line; blank lines and # comments are skipped.
 * label names the field in problems.
 */
export function parseExtra(text: string, label = 'More overrides'): ExtraOverrides {
  const parsed: ExtraOverrides = { overrides: [], paths: [], problems: [] };
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = overrideLine.exec(line);
    if (!match) {
      parsed.problems.push(`${label}, line ${index + 1}: "${line}" is not dotted.path=value (e.g. flows.0.cc=bbr).`);
      return;
    }
    parsed.overrides.push(`${match[1]}=${match[2].trim()}`);
    parsed.paths.push(match[1]);
  });
  return parsed;
}

/** overridesFor lists what the choices change in the lab, then the extra lines (which win, being last). */
export function overridesFor(lab: Scenario, choices: RunChoices): string[] {
  const flow = lab.flows[0];
  const overrides: string[] = [];
  const set = (path: string, value: string | number | boolean | null) => overrides.push(`${path}=${value === null ? 'null' : value}`);
  if (choices.transport !== flow.transport) set('flows.0.transport', choices.transport);
  if (choices.cc !== flow.cc) set('flows.0.cc', choices.cc);
  const hystart = hystartApplies(choices.transport, choices.cc) ? choices.hystart : null;
  if (hystart !== flow.hystart) set('flows.0.hystart', hystart);
  if (choices.sizeBytes !== null && choices.sizeBytes !== flow.size_bytes) {
    set('flows.0.size_bytes', choices.sizeBytes);
    if (flow.duration_s !== null) set('flows.0.duration_s', null);
  }
  if (choices.count !== flow.count) set('flows.0.count', choices.count);
  if (choices.tunnel === null) {
    if (lab.tunnel !== null) set('tunnel', null);
  } else {
    if (choices.tunnel.k !== lab.tunnel?.k) set('tunnel.k', choices.tunnel.k);
    if (choices.tunnel.z !== lab.tunnel?.z) set('tunnel.z', choices.tunnel.z);
  }
  return [...overrides, ...parseExtra(choices.extra).overrides];
}

const shellSafe = /^[\w@%+=:,./-]+$/;

/** commandLine is the same run from a shell: `satlab run labs/<lab>.yaml --set …`. */
export function commandLine(lab: string, overrides: string[]): string {
  const quote = (word: string) => (shellSafe.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);
  return ['satlab run', quote(`labs/${lab}.yaml`), ...overrides.map((override) => `--set ${quote(override)}`)].join(' ');
}
