import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import { liveSystem, viewEquations } from './equations';
import { FecRun, type FecRunConfig, type RepairPacket, fecCounters } from './fec-run';
import { receivedText } from './payload';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

const encode = (text: string) => new TextEncoder().encode(text);

function runToEnd(config: FecRunConfig, afterEachStep?: (run: FecRun) => void): FecRun {
  const run = new FecRun(codec, config);
  while (run.step()) afterEachStep?.(run);
  return run;
}

function labMatrix(run: FecRun) {
  return viewEquations(run.view(), (id) => codec.coefficients(id.repairKey, id.dt, id.nss));
}

describe('FecRun', () => {
  it('rebuilds two lost sources when the second repair over them arrives', () => {
    // Packets leave every 1 ms; the trace loses packets 1 and 2, sources 1 and 2 of S(3,9).
    const config = {
      k: 3,
      z: 9,
      symbolBytes: 2,
      packetMs: 1,
      channel: { kind: 'trace', intervals: [{ startMs: 1, endMs: 3 }] },
      payload: encode('abcdefghijkl'),
    } as const;
    const run = new FecRun(codec, config);
    for (let packet = 0; packet < 4; packet += 1) run.step();
    const afterFirstRepair = labMatrix(run);
    expect(afterFirstRepair.columns).toEqual([
      { esi: 1, givenUp: false },
      { esi: 2, givenUp: false },
    ]);
    expect(liveSystem(afterFirstRepair)).toHaveLength(1);
    expect(run.view().decoder.rebuilt).toBe(0);

    while (run.step());
    const view = run.view();
    expect(view.packets.map((packet) => (packet.kind === 'source' ? packet.esi : packet.label))).toEqual([0, 1, 2, 'R0', 3, 4, 5, 'R1']);
    expect(view.packets.filter((packet) => packet.lost).map((packet) => packet.index)).toEqual([1, 2]);
    expect(view.sources.map((source) => [source.state, source.rebuiltAt])).toEqual([
      ['received', undefined],
      ['rebuilt', 7],
      ['rebuilt', 7],
      ['received', undefined],
      ['received', undefined],
      ['received', undefined],
    ]);
    expect(receivedText(view.held, 2, 12)).toBe('abcdefghijkl');
    expect(fecCounters(view, 1)).toMatchObject({ rebuilt: 2, missing: 0, meanDecodingDelayMs: 5.5, maxDecodingDelayMs: 6 });
    run.free();
  });

  it('slides the window and sends a last repair over the tail', () => {
    const run = runToEnd({ k: 3, z: 4, symbolBytes: 1, packetMs: 1, channel: { kind: 'perfect' }, payload: encode('1234567') });
    const repairs = run.view().packets.filter((packet): packet is RepairPacket => packet.kind === 'repair');
    expect(repairs.map((repair) => [repair.index, repair.id.firstEsi, repair.id.nss, repair.flush])).toEqual([
      [3, 0, 3, false],
      [7, 2, 4, false],
      [9, 3, 4, true],
    ]);
    expect(fecCounters(run.view(), 1)).toMatchObject({ sourcesSent: 7, repairsSent: 3, overhead: 0.3, residualLoss: 0 });
    run.free();
  });

  it('drives a seeded Bernoulli run to known counters that agree with the channel and the decoder', () => {
    const text =
      'Sliding-window FEC over a geostationary link: every repair packet mixes the last z source packets, ' +
      'so a lost packet is rebuilt as soon as enough repairs arrive.';
    const channel = { kind: 'bernoulli', seed: 35, loss: 0.15 } as const;
    const run = runToEnd({ k: 3, z: 9, symbolBytes: 8, packetMs: 1, channel, payload: encode(text) });
    const view = run.view();
    const counters = fecCounters(view, 1);

    const sameChannel = codec.channel(channel);
    const expectedLost = view.packets.map((packet) => sameChannel.lost(packet.index * 1000));
    sameChannel.free();
    expect(view.packets.map((packet) => packet.lost)).toEqual(expectedLost);

    expect(counters).toMatchObject({ sourcesSent: 20, repairsSent: 7, sourcesLost: 5, repairsLost: 1, rebuilt: 5, missing: 0 });
    expect(counters.rebuilt).toBe(view.decoder.rebuilt);
    expect(view.decoder.sources).toBe(counters.sourcesSent - counters.sourcesLost);
    expect(view.decoder.repairs).toBe(counters.repairsSent - counters.repairsLost);
    expect(receivedText(view.held, 8, encode(text).length)).toBe(text);
    run.free();
  });

  it('passes on the error of the codec, naming the field of a channel it rejects', () => {
    const channel = { kind: 'trace', intervals: [{ startMs: 5, endMs: 2 }] } as const;
    expect(() => new FecRun(codec, { k: 3, z: 9, symbolBytes: 4, packetMs: 1, channel, payload: encode('abcd') })).toThrow(
      expect.objectContaining({ name: 'SwfError', field: 'intervals' }),
    );
  });

  it('draws the same system the decoder holds, given-up sources included: as many equations, none solvable', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const config: FecRunConfig = {
        k: 2,
        z: 6,
        symbolBytes: 4,
        packetMs: 1,
        channel: { kind: 'ge_packet', seed, p: 0.15, q: 0.4, lossGood: 0.02, lossBad: 0.8 },
        payload: encode('x'.repeat(160)),
      };
      runToEnd(config, (run) => {
        const system = liveSystem(labMatrix(run));
        for (const row of system) expect(row.filter((value) => value !== 0).length).toBeGreaterThan(1);
        expect(system.length).toBe(run.view().decoder.equations);
        const view = run.view();
        expect(view.sources.filter((source) => source.state === 'given-up').length).toBe(view.decoder.givenUp);
      }).free();
    }
  });
});

describe('give-ups', () => {
  it('marks the packet after which the decoder gave each source up, and the event log says so', async () => {
    const { describePacket } = await import('../components/event-log');
    const run = runToEnd({
      k: 3,
      z: 9,
      symbolBytes: 8,
      packetMs: 1,
      channel: { kind: 'bernoulli', seed: 35, loss: 0.4 },
      payload: encode('satlab '.repeat(57)),
    });
    const view = run.view();
    const givenUp = view.sources.filter((source) => source.state === 'given-up');
    expect(givenUp.length).toBeGreaterThan(0);
    for (const source of givenUp) {
      const packet = view.packets[source.givenUpAt ?? -1];
      expect(packet.index).toBeGreaterThan(source.sentAt);
      expect(describePacket(packet, view, 9)).toMatch(new RegExp(`the decoder gave up sources? ([\\d, ]+, )?${source.esi}\\b`));
    }
    run.free();
  });
});
