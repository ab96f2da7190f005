import type { LinkCounters, LinkSampleRow, RunSamples, SampleEvent, SatlinkStats, TunnelSampleRow } from '../api/types';

/**
 * A run's samples in one shape whether they come live (the stream's sample events) or stored
 * (GET api/runs/{id}/samples): the store's rows. rowsOfSample splits an event the way the store
 * does (backend/satlab/store.py, Store.add_sample), so that a run opened half-way merges both.
 */

export const noSamples: RunSamples = { flows: [], links: [], tunnel: [] };

const linkCounterNames = [
  'queue_bytes',
  'in_flight_packets',
  'packets_in',
  'bytes_in',
  'packets_out',
  'bytes_out',
  'drops_buffer',
  'drops_channel',
  'drops_overflow',
] as const satisfies readonly (keyof LinkCounters)[];

// satlink's side a is the terminal (satellite link) or the client (LAN): ba runs towards the client.
const links = [
  { key: 'link', link: 'satellite', directions: { ba: 'forward', ab: 'return' } },
  { key: 'lan', link: 'lan', directions: { ba: 'down', ab: 'up' } },
] as const;

/** rowsOfSample turns one sample event into the rows the store keeps for it. */
export function rowsOfSample(event: SampleEvent): RunSamples {
  const at = { iteration: event.iteration, t_s: event.t_s };
  const flows = event.flows.map((flow) => ({
    ...at,
    flow: flow.flow,
    bytes_acked: flow.bytes_acked ?? null,
    goodput_mbps: flow.goodput_mbps ?? null,
    cwnd_bytes: flow.cwnd_bytes ?? null,
    rtt_ms: flow.rtt_ms ?? null,
    retransmissions: flow.retransmissions ?? null,
    delivery_rate_mbps: flow.delivery_rate_mbps ?? null,
  }));
  const linkRows: LinkSampleRow[] = [];
  for (const { key, link, directions } of links) {
    const stats: SatlinkStats | null = event[key];
    for (const [side, direction] of Object.entries(directions) as ['ab' | 'ba', LinkSampleRow['direction']][]) {
      const counters = stats?.[side];
      if (!counters) continue;
      const row = { ...at, link, direction } as LinkSampleRow;
      for (const name of linkCounterNames) row[name] = counters[name] ?? null;
      linkRows.push(row);
    }
  }
  const tunnel: TunnelSampleRow[] = [];
  if (event.tunnel.length === 2) {
    const [terminal, gateway] = event.tunnel;
    // The terminal's endpoint receives the forward direction, the gateway's the return.
    for (const [direction, sender, receiver] of [
      ['forward', gateway, terminal],
      ['return', terminal, gateway],
    ] as const) {
      if (!sender && !receiver) continue;
      const tx = sender?.tx ?? {};
      const rx = receiver?.rx ?? {};
      tunnel.push({
        ...at,
        direction,
        tx_sources: tx.sources ?? null,
        tx_repairs: tx.repairs ?? null,
        rx_sources: rx.sources ?? null,
        rx_repairs: rx.repairs ?? null,
        rx_lost: rx.lost ?? null,
        rx_recovered: rx.recovered ?? null,
        rx_unrecovered: rx.unrecovered ?? null,
      });
    }
  }
  return { flows, links: linkRows, tunnel };
}

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
    flows: mergeRows(held.flows, incoming.flows, (row) => `${row.iteration}/${row.t_s}/${row.flow}`),
    links: mergeRows(held.links, incoming.links, (row) => `${row.iteration}/${row.t_s}/${row.link}/${row.direction}`),
    tunnel: mergeRows(held.tunnel, incoming.tunnel, (row) => `${row.iteration}/${row.t_s}/${row.direction}`),
  };
}
