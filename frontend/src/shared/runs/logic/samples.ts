import type { RunSamples } from '../api/types';

/**
 * A run's samples, live (the stream's sample events) or stored (GET api/runs/{id}/samples): both
 * are the store's rows, so a run opened half-way merges them.
 */

export const noSamples: RunSamples = { flows: [], links: [], tunnel: [], pep: [] };

interface Timed {
  iteration: number;
  t_s: number;
}

const compareTime = (a: Timed, b: Timed) => a.iteration - b.iteration || a.t_s - b.t_s;

/**
 * mergeRows adds rows in time order, once each: a live row later than all held is appended (the
 * common case, cheap); otherwise, as when stored samples arrive after a few live ones, rows
 * already held (same identity) are dropped and the whole is sorted again.
 */
function mergeRows<Row extends Timed>(held: Row[], incoming: Row[], identity: (row: Row) => string): Row[] {
  if (incoming.length === 0) return held;
  const last = held.at(-1);
  if (!last || incoming.every((row) => compareTime(row, last) > 0)) return held.concat(incoming);
  const seen = new Set(held.map(identity));
  return held.concat(incoming.filter((row) => !seen.has(identity(row)))).sort(compareTime);
}

/** mergeSamples adds samples (live or stored) to those held, each row once, in time order. */
export function mergeSamples(held: RunSamples, incoming: RunSamples): RunSamples {
  return {
    flows: mergeRows(held.flows, incoming.flows, (row) => `${row.iteration}/${row.t_s}/${row.flow}/${row.hop}`),
    links: mergeRows(held.links, incoming.links, (row) => `${row.iteration}/${row.t_s}/${row.link}/${row.direction}`),
    tunnel: mergeRows(held.tunnel, incoming.tunnel, (row) => `${row.iteration}/${row.t_s}/${row.direction}`),
    pep: mergeRows(held.pep, incoming.pep, (row) => `${row.iteration}/${row.t_s}/${row.flow}`),
  };
}
