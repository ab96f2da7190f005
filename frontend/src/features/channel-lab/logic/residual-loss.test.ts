import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import { residualLoss } from './residual-loss';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

/** Packets leave every 1 ms, so with S(10,z) each 11 ms holds 10 sources then their repair. */
const lossAtStartOfEachBlock = (lostPackets: number) =>
  ({ kind: 'trace', intervals: [{ startMs: 0, endMs: lostPackets }], tracePeriodMs: 11 }) as const;

describe('residualLoss', () => {
  it('loses nothing on a perfect channel and sends a repair after every k sources, up to 2z past the count', () => {
    // The decoder keeps 2z ESIs, rounded up to a power of two: 64 sources later, the fate of the last counted one is settled.
    expect(residualLoss(codec, { k: 4, z: 20, packetMs: 1, channel: { kind: 'perfect' }, sources: 1000 })).toEqual({
      k: 4,
      sources: 1000,
      packets: 1064 + 266,
      channelLoss: 0,
      residualLoss: 0,
    });
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
