import type { ChannelConfig, Codec } from '../../../lib/codec/types';
import { codeLimits } from '../../../lib/code-limits';
import { type BatchTally, addBatch, emptyTally } from './residual-interval';
import { ResidualLossStream } from './residual-loss';

export interface ResidualCurveRequest {
  /** The channel model that decides which packets are lost. */
  channel: ChannelConfig;
  /** Time between two packets on the wire, in ms. */
  packetMs: number;
  /** The window of every S(k,z) tried. */
  z: number;
  /** The values of k to try, in order. */
  ks: number[];
  /** Source packets per value of k. */
  sources: number;
}

/** What the Monte-Carlo has counted so far for one k. */
export interface ResidualPoint extends BatchTally {
  k: number;
  /** Packets on the wire, sources and repairs, and those the channel dropped. */
  packets: number;
  packetsLost: number;
}

export interface ResidualCurveProgress {
  /** One point per k of the request, in its order; each refines as batches accumulate. */
  points: ResidualPoint[];
  /** Packets through encoder, channel and decoder per second of computing. */
  packetsPerSecond: number;
  /** True once every point holds the sources asked for. */
  done: boolean;
}

/**
 * Each point is counted in this many batches: enough for their spread to measure the estimate's
 * variance (residual-interval.ts), few enough that each batch is long beside a channel's bursts.
 */
export const batchesPerPoint = 32;

/** splitKs deals the values of k out to `workers` workers in turn, so that each gets small and large ones. */
export function splitKs(ks: number[], workers: number): number[][] {
  const shares: number[][] = Array.from({ length: Math.min(workers, ks.length) }, () => []);
  ks.forEach((k, index) => shares[index % shares.length].push(k));
  return shares;
}

/** emptyPoints is a point per k with nothing counted yet. */
export const emptyPoints = (ks: number[]): ResidualPoint[] => ks.map((k) => ({ k, ...emptyTally, packets: 0, packetsLost: 0 }));

/**
 * runResidualCurve runs the Monte-Carlo of every k at once, a batch of each in turn, so that the
 * whole curve appears early and then refines; it reports at most every reportEveryMs, and once
 * more at the end. It computes without pause: run it in a worker (residual-curve.worker.ts).
 */
export function runResidualCurve(
  codec: Codec,
  request: ResidualCurveRequest,
  onProgress: (progress: ResidualCurveProgress) => void,
  reportEveryMs = 100,
): void {
  const batchSources = Math.ceil(request.sources / batchesPerPoint);
  const streams = request.ks.map(
    (k) => new ResidualLossStream(codec, { k, z: request.z, packetMs: request.packetMs, channel: request.channel }),
  );
  try {
    const points = emptyPoints(request.ks);
    const started = performance.now();
    let reported = started;
    const report = (done: boolean) => {
      const packets = points.reduce((total, point) => total + point.packets, 0);
      const elapsedMs = performance.now() - started;
      onProgress({ points: [...points], packetsPerSecond: elapsedMs > 0 ? (packets / elapsedMs) * 1000 : 0, done });
    };
    for (let round = 0; round < batchesPerPoint; round += 1) {
      streams.forEach((stream, index) => {
        const point = points[index];
        const sources = Math.min(batchSources, request.sources - point.sources);
        if (sources <= 0) return;
        const batch = stream.advance(sources);
        points[index] = {
          ...point,
          ...addBatch(point, batch.sources, batch.lost),
          packets: point.packets + batch.packets,
          packetsLost: point.packetsLost + batch.packetsLost,
        };
        if (performance.now() - reported >= reportEveryMs) {
          report(false);
          reported = performance.now();
        }
      });
    }
    report(true);
  } finally {
    for (const stream of streams) stream.free();
  }
}

/** parseKs reads a list like "1,2,5-8" into distinct, sorted values of k; it throws naming the bad part. */
export function parseKs(text: string): number[] {
  const { min, max } = codeLimits.k;
  const ks = new Set<number>();
  for (const part of text.split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    const first = Number(match?.[1]);
    const last = Number(match?.[2] ?? match?.[1]);
    if (!match || first < min || last < first || last > max) {
      throw new Error(`"${part}" is not a value of k from ${min} to ${max}, nor a range like 2-8.`);
    }
    for (let k = first; k <= last; k += 1) ks.add(k);
  }
  if (ks.size === 0) throw new Error('Give at least one value of k, e.g. 1,2,5,10.');
  return [...ks].sort((a, b) => a - b);
}
