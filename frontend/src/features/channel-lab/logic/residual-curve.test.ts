import { beforeAll, describe, expect, it } from 'vitest';
import type { Codec } from '../../../lib/codec/types';
import { loadTestCodec } from '../../../test/load-test-codec';
import { type ResidualCurveProgress, parseKs, residualCurve } from './residual-curve';

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

describe('residualCurve', () => {
  const request = { channel: { kind: 'bernoulli', seed: 3, loss: 0.05 }, packetMs: 1, z: 50, ks: [1, 4, 8], sources: 2000 } as const;

  it('reports after each k, in order, with the speed of the computation', async () => {
    const reports: ResidualCurveProgress[] = [];
    await residualCurve(codec, { ...request, ks: [...request.ks] }, (progress) => reports.push(progress), () => false);
    expect(reports.map((report) => report.points.map((point) => point.k))).toEqual([[1], [1, 4], [1, 4, 8]]);
    expect(reports.every((report) => report.packetsPerSecond > 0)).toBe(true);
  });

  it('stops once cancelled', async () => {
    const reports: ResidualCurveProgress[] = [];
    await residualCurve(codec, { ...request, ks: [...request.ks] }, (progress) => reports.push(progress), () => reports.length > 0);
    expect(reports).toHaveLength(1);
  });
});
