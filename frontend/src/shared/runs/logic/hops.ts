import type { FlowGroup, FlowSampleRow } from '../api/types';

/**
 * The hops of a flow's path as a split-TCP PEP cuts it (the backend's satlab/engine/pep/segments.py):
 * a flow no PEP splits is one connection, end to end; through distributed PEPs three (client to
 * terminal PEP, across the satellite between the PEPs, gateway PEP to server); through a gateway
 * PEP alone two (the client's own connection across the satellite to the gateway PEP, then the
 * server's). A flow's samples say which hop each one describes.
 */
export type Hop = FlowSampleRow['hop'];

/** The hops in path order, from the client's side: the first of a flow's is the connection its client sees. */
export const hopOrder: readonly Hop[] = ['end-to-end', 'client', 'satellite', 'server'];

/** Each hop's name by its ends, as the charts and the summary's table of segments show it. */
export const hopNames: Record<Hop, string> = {
  'end-to-end': 'end to end',
  client: 'client–terminal',
  satellite: 'satellite',
  server: 'gateway–server',
};

/** A PEP segment's hop is its name in the summary's and the PEP samples' figures (pep_client_bytes, client_bytes...). */
export const pepSegments = ['client', 'satellite', 'server'] as const satisfies readonly Hop[];

const pathIndex = (hop: Hop) => hopOrder.indexOf(hop);

/** byPathOrder sorts hops from the client's side. */
export const byPathOrder = (a: Hop, b: Hop) => pathIndex(a) - pathIndex(b);

/**
 * clientView keeps, of each flow's samples, those of the connection its client sees: the first of
 * its hops from the client's side (a flow's samples stored before hops were recorded are all one hop).
 */
export function clientView(rows: FlowSampleRow[]): FlowSampleRow[] {
  const first = new Map<string, Hop>();
  for (const row of rows) {
    const flow = `${row.iteration}/${row.flow}`;
    const held = first.get(flow);
    if (held === undefined || byPathOrder(row.hop, held) < 0) first.set(flow, row.hop);
  }
  return rows.filter((row) => first.get(`${row.iteration}/${row.flow}`) === row.hop);
}

/**
 * intakeHop is the hop where a flow's data enter the PEPs: the server's for a download, the
 * client's for an upload (the backend's end_host_segment). Its sender, an end host, fills the PEP's
 * buffer at the LAN's pace. A flow without that hop (no PEP; an upload through a gateway PEP alone)
 * never matches it.
 */
export const intakeHop = (flow: Pick<FlowGroup, 'direction'>): Hop => (flow.direction === 'upload' ? 'client' : 'server');
