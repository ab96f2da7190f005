import type { ChannelConfig, Codec, ResidualStream } from '../../../lib/codec';
import { codeLimits } from '../../../lib/code-limits';
import { type BatchTally, addBatch, addTallies, emptyTally } from './residual-interval';

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

/**
 * One worker's part of a request: for every k, its own stretch of the stream, `sources` long from
 * source `firstSource` on, with the channel seeded for this worker (workerSeed).
 */
export interface ResidualCurveShare extends ResidualCurveRequest {
  /** Where the stretch starts in the request's stream: its packets are sent at the times they would be there. */
  firstSource: number;
  /** Batches each point of this share is counted in. */
  batches: number;
}

/** What the Monte-Carlo has counted so far for one k. */
export interface ResidualPoint extends BatchTally {
  k: number;
  /** Packets on the wire, sources and repairs, and those the channel dropped. */
  packets: number;
  packetsLost: number;
}

export interface ResidualCurveProgress {
  /** One point per k of the share, in its order; each refines as batches accumulate. */
  points: ResidualPoint[];
  /** True once every point holds the sources asked for. */
  done: boolean;
}

/**
 * Each point is counted in this many batches, over all workers: enough for their spread to measure
 * the estimate's variance (residual-interval.ts), few enough that each batch is long beside a
 * channel's bursts.
 */
export const batchesPerPoint = 32;

/** The step between two workers' seeds: 2^32 over the golden ratio, so that they share no low bits. */
export const workerSeedStep = 0x9e3779b9;

/** workerSeed is the channel seed of worker `worker` (from 0): the run's seed for the first one. */
export const workerSeed = (seed: number, worker: number): number => (seed + worker * workerSeedStep) >>> 0;

/**
 * shareOut splits a request between `workers` workers (fewer if there are fewer sources): worker i
 * counts the i-th of consecutive stretches of each k's stream, its channel seeded with
 * workerSeed(seed, i). A stretch's packets are sent at the times they would be in the one long
 * stream, so that a channel that depends on time alone (an outage, a trace played once) is met as
 * that stream would meet it, not once per worker.
 */
export function shareOut(request: ResidualCurveRequest, workers: number): ResidualCurveShare[] {
  const count = Math.max(1, Math.min(workers, request.sources));
  const start = (worker: number) => Math.floor((request.sources * worker) / count);
  return Array.from({ length: count }, (_, worker) => ({
    ...request,
    channel: 'seed' in request.channel ? { ...request.channel, seed: workerSeed(request.channel.seed, worker) } : request.channel,
    firstSource: start(worker),
    sources: start(worker + 1) - start(worker),
    batches: Math.ceil(batchesPerPoint / count),
  }));
}

/** emptyPoints is a point per k with nothing counted yet. */
export const emptyPoints = (ks: number[]): ResidualPoint[] => ks.map((k) => ({ k, ...emptyTally, packets: 0, packetsLost: 0 }));

/** mergePoints adds up the workers' points, k by k: each worker has a point for every k, in the same order. */
export function mergePoints(parts: ResidualPoint[][]): ResidualPoint[] {
  return parts[0].map((first, index) =>
    parts.slice(1).reduce(
      (sum, part) => ({
        ...sum,
        ...addTallies(sum, part[index]),
        packets: sum.packets + part[index].packets,
        packetsLost: sum.packetsLost + part[index].packetsLost,
      }),
      first,
    ),
  );
}

/**
 * runResidualCurve runs the Monte-Carlo of a share's every k at once, a batch of each in turn, so
 * that the whole curve appears early and then refines; it reports at most every reportEveryMs, and
 * once more at the end. It computes without pause: run it in a worker (residual-curve.worker.ts).
 */
export function runResidualCurve(
  codec: Codec,
  share: ResidualCurveShare,
  onProgress: (progress: ResidualCurveProgress) => void,
  reportEveryMs = 250,
): void {
  const batchSources = Math.ceil(share.sources / share.batches);
  const streams: ResidualStream[] = [];
  try {
    for (const k of share.ks) {
      // Before the stretch's first source, one stream would have sent a repair after every k sources.
      const firstPacket = share.firstSource + Math.floor(share.firstSource / k);
      streams.push(codec.residualStream({ k, z: share.z, packetMs: share.packetMs, firstPacket, channel: share.channel }));
    }
    const points = emptyPoints(share.ks);
    let reported = performance.now();
    for (let round = 0; round < share.batches; round += 1) {
      streams.forEach((stream, index) => {
        const point = points[index];
        const sources = Math.min(batchSources, share.sources - point.sources);
        if (sources <= 0) return;
        const batch = stream.advance(sources);
        points[index] = {
          ...point,
          ...addBatch(point, batch.sources, batch.lost),
          packets: point.packets + batch.packets,
          packetsLost: point.packetsLost + batch.packetsLost,
        };
        if (performance.now() - reported >= reportEveryMs) {
          onProgress({ points: [...points], done: false });
          reported = performance.now();
        }
      });
    }
    onProgress({ points, done: true });
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
