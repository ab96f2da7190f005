import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec/types';
import { loadTestCodec } from '../../../test/load-test-codec';
import { type ResidualCurveProgress, batchesPerPoint, parseKs, runResidualCurve, splitKs } from './residual-curve';
import { residualLoss } from './residual-loss';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

describe('parseKs', () => {
  it('reads values and ranges into sorted, distinct values', () => {
    expect(parseKs('10, 1,2,5-7,2')).toEqual([1, 2, 5, 6, 7, 10]);
  });

  it('names the part it cannot read', () => {
    expect(() => parseKs('1,0')).toThrow('"0" is not a value of k from 1 to 1000');
    expect(() => parseKs('5-2')).toThrow('"5-2" is not a value of k');
    expect(() => parseKs('two')).toThrow('"two" is not a value of k');
    expect(() => parseKs(' , ')).toThrow('Give at least one value of k');
  });
});

describe('runResidualCurve', () => {
  const request = { channel: { kind: 'bernoulli', seed: 3, loss: 0.05 }, packetMs: 1, z: 50, ks: [1, 4, 8], sources: 3200 } as const;

  it('refines every k at once, batch by batch, and ends with the counts of one stream per k', () => {
    const reports: ResidualCurveProgress[] = [];
    runResidualCurve(codec, { ...request, ks: [...request.ks] }, (progress) => reports.push(progress), 0);
    // The first report already holds a batch of each k: the whole curve shows early.
    expect(reports[0].points.map((point) => [point.k, point.sources])).toEqual([
      [1, 100],
      [4, 0],
      [8, 0],
    ]);
    expect(reports[2].points.map((point) => point.sources)).toEqual([100, 100, 100]);
    const last = reports.at(-1);
    expect(last?.done).toBe(true);
    expect(reports.filter((report) => report.done)).toHaveLength(1);
    expect(last?.packetsPerSecond).toBeGreaterThan(0);
    for (const point of last?.points ?? []) {
      expect(point.batches).toBe(batchesPerPoint);
      const alone = residualLoss(codec, { k: point.k, z: request.z, packetMs: 1, channel: request.channel, sources: request.sources });
      expect(point.sources).toBe(request.sources);
      expect(point.lost / point.sources).toBe(alone.residualLoss);
    }
  });
});

describe('splitKs', () => {
  it('deals the values of k out in turn, so that each worker gets small and large ones', () => {
    expect(splitKs([1, 2, 3, 4, 5, 6, 8, 10, 15, 20], 4)).toEqual([[1, 5, 15], [2, 6, 20], [3, 8], [4, 10]]);
    expect(splitKs([2, 5], 8)).toEqual([[2], [5]]);
  });
});
