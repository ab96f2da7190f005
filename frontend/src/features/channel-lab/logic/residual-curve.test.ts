import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import {
  type ResidualCurveProgress,
  type ResidualCurveShare,
  type ResidualPoint,
  batchesPerPoint,
  mergePoints,
  parseKs,
  runResidualCurve,
  shareOut,
  workerSeed,
} from './residual-curve';
import { residualEstimate } from './residual-interval';
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
  const whole = { ...request, ks: [...request.ks], firstSource: 0, batches: batchesPerPoint };

  it('refines every k at once, batch by batch, and ends with the counts of one stream per k', () => {
    const reports: ResidualCurveProgress[] = [];
    runResidualCurve(codec, whole, (progress) => reports.push(progress), 0);
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
    for (const point of last?.points ?? []) {
      expect(point.batches).toBe(batchesPerPoint);
      const alone = residualLoss(codec, { k: point.k, z: request.z, packetMs: 1, channel: request.channel, sources: request.sources });
      expect(point.sources).toBe(request.sources);
      expect(point.lost / point.sources).toBe(alone.residualLoss);
    }
  });
});

describe('shareOut', () => {
  /** run counts a share in full and returns its points. */
  const run = (share: ResidualCurveShare) => {
    let points: ResidualPoint[] = [];
    runResidualCurve(codec, share, (progress) => (points = progress.points));
    return points;
  };

  it('gives each worker a consecutive stretch of the stream, its own seed, and its part of the batches', () => {
    const shares = shareOut({ channel: { kind: 'bernoulli', seed: 7, loss: 0.1 }, packetMs: 1, z: 100, ks: [2, 5], sources: 1000 }, 3);
    expect(shares.map(({ firstSource, sources, batches }) => [firstSource, sources, batches])).toEqual([
      [0, 333, 11],
      [333, 333, 11],
      [666, 334, 11],
    ]);
    expect(shares.map((share) => ('seed' in share.channel ? share.channel.seed : undefined))).toEqual([7, 2654435776, 1013904249]);
    expect(workerSeed(0xffffffff, 1)).toBe(0x9e3779b8);
    expect(shareOut({ channel: { kind: 'perfect' }, packetMs: 1, z: 10, ks: [1], sources: 2 }, 8)).toHaveLength(2);
  });

  it('meets a trace played once as one stream does, not once per worker', () => {
    // 20 ms of loss, once, early: only the first stretch meets it.
    const request = { channel: { kind: 'trace', intervals: [{ startMs: 10, endMs: 30 }] } as const, packetMs: 1, z: 10, ks: [2], sources: 4000 };
    const [merged] = mergePoints(shareOut(request, 2).map(run));
    const [alone] = run(shareOut(request, 1)[0]);
    expect(alone.packetsLost).toBe(20);
    expect(alone.lost).toBeGreaterThan(0);
    expect([merged.sources, merged.lost, merged.packetsLost, merged.batches]).toEqual([4000, alone.lost, 20, batchesPerPoint]);
  });

  it('merges the workers\' points into intervals as narrow as one stream\'s of all their sources', () => {
    const request = { channel: { kind: 'ge_packet', seed: 5, p: 0.02, q: 0.2, lossGood: 0, lossBad: 1 } as const, packetMs: 1, z: 20, ks: [4], sources: 64_000 };
    const [merged] = mergePoints(shareOut(request, 4).map(run));
    const [alone] = run(shareOut(request, 1)[0]);
    const width = (point: ResidualPoint) => residualEstimate(point).upper - residualEstimate(point).lower;
    expect(merged.sources).toBe(alone.sources);
    // Independent estimates of the same residual loss: within each other's intervals, of alike widths.
    expect(Math.abs(merged.lost - alone.lost) / alone.sources).toBeLessThan(width(alone));
    expect(width(merged) / width(alone)).toBeGreaterThan(0.5);
    expect(width(merged) / width(alone)).toBeLessThan(2);
  });
});
