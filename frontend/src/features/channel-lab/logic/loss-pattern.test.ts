import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import { burstHistogram, lossRate, sampleLosses } from './loss-pattern';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

describe('burstHistogram', () => {
  it('counts runs of consecutive losses by length, including one at the end', () => {
    expect(burstHistogram(Uint8Array.of(0, 1, 1, 0, 1, 0, 0, 1, 1))).toEqual([
      { length: 1, count: 1 },
      { length: 2, count: 2 },
    ]);
  });

  it('finds no burst where nothing is lost', () => {
    expect(burstHistogram(new Uint8Array(10))).toEqual([]);
    expect(lossRate(new Uint8Array(0))).toBe(0);
  });
});

describe('sampleLosses', () => {
  it('sees a 15.5 ms outage every 258 ms as a burst of 16 packets sent 1 ms apart', () => {
    const lost = sampleLosses(codec, { kind: 'outage', seed: 1, periodMs: 258, durationMs: 15.5 }, 1, 4 * 258);
    expect(burstHistogram(lost)).toEqual([{ length: 16, count: 4 }]);
    expect(lossRate(lost)).toBe(16 / 258);
    expect(Array.from(lost.subarray(256, 276)).join('')).toBe('00' + '1'.repeat(16) + '00');
  });

  it('draws the same losses from the same seed, and others from another', () => {
    const bernoulli = (seed: number) => sampleLosses(codec, { kind: 'bernoulli', seed, loss: 0.3 }, 1, 500);
    expect(bernoulli(4)).toEqual(bernoulli(4));
    expect(bernoulli(4)).not.toEqual(bernoulli(5));
  });
});
