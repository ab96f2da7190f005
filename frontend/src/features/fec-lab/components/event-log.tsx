import type { FecRunView, SentPacket } from '../logic/fec-run';
import { decoderWindowEsis, newestHeardEsi } from '../logic/give-up-rule';

export interface EventLogProps {
  /** The run whose latest packets to narrate. */
  view: FecRunView;
  /** The code's window: the decoder keeps 2z ESIs rounded up to a power of two. */
  z: number;
  /** How many of the latest packets to list. */
  length?: number;
}

/** describePacket says in a sentence what happened to a packet and what its arrival rebuilt. */
export function describePacket(packet: SentPacket, view: FecRunView, z: number): string {
  const what =
    packet.kind === 'source'
      ? `source ${packet.esi}`
      : `${packet.flush ? 'last ' : ''}repair ${packet.label} over [${packet.id.firstEsi},${packet.id.firstEsi + packet.id.nss - 1}]`;
  const rebuilt = view.sources.filter((source) => source.rebuiltAt === packet.index).map((source) => source.esi);
  const givenUp = view.sources.filter((source) => source.givenUpAt === packet.index).map((source) => source.esi);
  const outcome = packet.lost ? 'lost' : 'arrived';
  const rebuilds = rebuilt.length > 0 ? `; rebuilt source${rebuilt.length > 1 ? 's' : ''} ${rebuilt.join(', ')}` : '';
  const newest = newestHeardEsi(view.packets.slice(0, packet.index + 1));
  const givesUp =
    givenUp.length > 0
      ? `; the decoder gave up source${givenUp.length > 1 ? 's' : ''} ${givenUp.join(', ')}: it heard of ESI ${newest}, ` +
        `and keeps only the last ${decoderWindowEsis(z)} ESIs: lost for good`
      : '';
  return `Packet ${packet.index}: ${what} ${outcome}${rebuilds}${givesUp}.`;
}

/** EventLog narrates the latest packets, newest first; the newest is announced to screen readers. */
export function EventLog({ view, z, length = 8 }: EventLogProps) {
  const latest = view.packets.slice(-length).reverse();
  return (
    <div className="event-log">
      <p role="status" className="visually-hidden">
        {latest[0] ? describePacket(latest[0], view, z) : ''}
      </p>
      {latest.length === 0 ? (
        <p className="muted">Press Step to send the first packet.</p>
      ) : (
        <ol aria-label="Latest packets">
          {latest.map((packet) => (
            <li key={packet.index} className={packet.lost ? 'event-lost' : undefined}>
              {describePacket(packet, view, z)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
