import { beforeAll, describe, expect, it } from 'vitest';
import { csvText } from '../../../components/charts';
import type { Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import { FecRun } from './fec-run';
import { timelineSource, timelineTable } from './timeline-figure';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

// Packets leave every 1 ms; the trace loses packets 1 and 2, sources 1 and 2 of S(3,9), which the
// repairs rebuild.
const config = {
  k: 3,
  z: 9,
  symbolBytes: 2,
  packetMs: 1,
  channel: { kind: 'trace', intervals: [{ startMs: 1, endMs: 3 }], tracePeriodMs: 0 },
  payload: new TextEncoder().encode('abcdefghijkl'),
} as const;

describe('the time line as a figure', () => {
  it('writes a row per packet sent: kind, ESI or window, loss, and what became of each source', () => {
    const run = new FecRun(codec, config);
    while (run.step());
    const view = run.view();
    const lines = csvText(timelineTable(view)).split('\r\n');
    expect(lines[0]).toBe(
      'Packet (index in send order),Kind,Source ESI or repair,Lost on the channel (1 or 0),Repair window first (ESI),' +
        'Repair window last (ESI),Source at the receiver,Rebuilt at (packet index),Given up after (packet index)',
    );
    expect(lines).toHaveLength(view.packets.length + 2);
    // Sources 1 and 2 lost, rebuilt when the second repair (packet 7) arrives; R0 covers ESIs 0 to 2.
    expect(lines.slice(1, 5)).toEqual(['0,source,0,0,,,received,,', '1,source,1,1,,,rebuilt,7,', '2,source,2,1,,,rebuilt,7,', '3,repair,R0,0,0,2,,,']);
  });

  it('names the code, the channel and how far the run went', () => {
    const run = new FecRun(codec, config);
    run.step();
    expect(timelineSource(run.view(), 3, 9, config.channel, 1)).toBe(
      `satlab FEC lab: S(3,9), Loss trace replay (intervals 1-3, tracePeriodMs 0), a packet every 1 ms; 1 of ${run.view().plannedPackets} packets sent`,
    );
  });
});
