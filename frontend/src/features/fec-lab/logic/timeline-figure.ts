import type { ChartTable } from '../../../components/charts';
import { describeChannel } from '../../../lib/channel';
import type { ChannelConfig } from '../../../lib/codec';
import type { FecRunView, SentPacket } from './fec-run';

/**
 * The time line as a figure: its caption (the code, the channel with its seed, how far the run
 * went) and what it draws as a table, for CSV: a row per packet sent.
 */

/** timelineSource says what run the time line draws: the same settings send the same packets and lose the same ones. */
export function timelineSource(view: FecRunView, k: number, z: number, channel: ChannelConfig, packetMs: number): string {
  return (
    `satlab FEC lab: S(${k},${z}), ${describeChannel(channel)}, a packet every ${packetMs} ms; ` +
    `${view.packets.length} of ${view.plannedPackets} packets sent`
  );
}

/** timelineTable is the time line's packets: each one's kind, ESI or repair window, loss, and what became of a source. */
export function timelineTable(view: FecRunView): ChartTable<SentPacket> {
  const fate = (packet: SentPacket) => (packet.kind === 'source' ? view.sources[packet.esi] : undefined);
  return {
    columns: [
      { header: 'Packet (index in send order)', value: (packet) => packet.index },
      { header: 'Kind', value: (packet) => packet.kind },
      { header: 'Source ESI or repair', value: (packet) => (packet.kind === 'source' ? packet.esi : packet.label) },
      { header: 'Lost on the channel (1 or 0)', value: (packet) => (packet.lost ? 1 : 0) },
      { header: 'Repair window first (ESI)', value: (packet) => (packet.kind === 'repair' ? packet.id.firstEsi : null) },
      { header: 'Repair window last (ESI)', value: (packet) => (packet.kind === 'repair' ? packet.id.firstEsi + packet.id.nss - 1 : null) },
      { header: 'Source at the receiver', value: (packet) => fate(packet)?.state ?? null },
      { header: 'Rebuilt at (packet index)', value: (packet) => fate(packet)?.rebuiltAt ?? null },
      { header: 'Given up after (packet index)', value: (packet) => fate(packet)?.givenUpAt ?? null },
    ],
    rows: view.packets,
  };
}
