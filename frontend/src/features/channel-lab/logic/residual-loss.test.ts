import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec/types';
import { loadTestCodec } from '../../../test/load-test-codec';
import { ResidualLossStream, residualLoss } from './residual-loss';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

/** Packets leave every 1 ms, so with S(10,z) each 11 ms holds 10 sources then their repair. */
const lossAtStartOfEachBlock = (lostPackets: number) =>
  ({ kind: 'trace', intervals: [{ startMs: 0, endMs: lostPackets }], tracePeriodMs: 11 }) as const;

describe('residualLoss', () => {
  it('loses nothing on a perfect channel and sends a repair after every k sources, 2z + 1 sources past the count', () => {
    // The decoder keeps 2z ESIs: 41 sources later, the fate of the last counted one is settled.
    expect(residualLoss(codec, { k: 4, z: 20, packetMs: 1, channel: { kind: 'perfect' }, sources: 1000 })).toEqual({
      k: 4,
      sources: 1000,
      packets: 1041 + 260,
      channelLoss: 0,
      residualLoss: 0,
    });
  });

  it('counts the same in stretches as in one go: the stream carries on from one to the next', () => {
    const config = { k: 3, z: 30, packetMs: 1, channel: { kind: 'ge_packet', seed: 7, p: 0.05, q: 0.3, lossGood: 0, lossBad: 0.8 } } as const;
    const whole = new ResidualLossStream(codec, config);
    const pieces = new ResidualLossStream(codec, config);
    const once = whole.advance(4000);
    const stretches = [1000, 1000, 500, 1500].map((sources) => pieces.advance(sources));
    expect(once.lost).toBeGreaterThan(0);
    expect(stretches.reduce((total, stretch) => total + stretch.lost, 0)).toBe(once.lost);
    expect(stretches.reduce((total, stretch) => total + stretch.packets, 0)).toBe(once.packets);
    whole.free();
    pieces.free();
  });

  it('rebuilds one loss per block of S(10,100)', () => {
    const result = residualLoss(codec, { k: 10, z: 100, packetMs: 1, channel: lossAtStartOfEachBlock(1), sources: 1000 });
    expect(result.channelLoss).toBeCloseTo(1 / 11, 2);
    expect(result.residualLoss).toBe(0);
  });

  it('rebuilds the losses at the very end of the counted stream too', () => {
    // Loses sources 995 to 999 of S(1,100): each is rebuilt from the repairs that follow.
    const channel = { kind: 'trace', intervals: [{ startMs: 1990, endMs: 2000 }] } as const;
    const result = residualLoss(codec, { k: 1, z: 100, packetMs: 1, channel, sources: 1000 });
    expect(result.channelLoss).toBeGreaterThan(0);
    expect(result.residualLoss).toBe(0);
  });

  it('rebuilds nothing when two losses share the only repair over them, S(10,10)', () => {
    const result = residualLoss(codec, { k: 10, z: 10, packetMs: 1, channel: lossAtStartOfEachBlock(2), sources: 1000 });
    expect(result.channelLoss).toBeCloseTo(2 / 11, 2);
    expect(result.residualLoss).toBe(0.2);
  });
});
