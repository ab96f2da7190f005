import type { ChannelConfig, Codec } from '../../../lib/codec/types';
import { type ResidualLossResult, residualLoss } from './residual-loss';

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

export interface ResidualCurveProgress {
  /** The results so far, in the order of the request's ks. */
  points: ResidualLossResult[];
  /** Packets through encoder, channel and decoder per second of computing (yields excluded). */
  packetsPerSecond: number;
}

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * residualCurve runs the Monte-Carlo for each k in turn, reports after each point, and yields to the
 * browser in between so that the page stays responsive; it stops early once cancelled() is true.
 */
export async function residualCurve(
  codec: Codec,
  request: ResidualCurveRequest,
  onProgress: (progress: ResidualCurveProgress) => void,
  cancelled: () => boolean,
): Promise<void> {
  const points: ResidualLossResult[] = [];
  let computeMs = 0;
  for (const k of request.ks) {
    await yieldToBrowser();
    if (cancelled()) return;
    const started = performance.now();
    points.push(residualLoss(codec, { k, z: request.z, packetMs: request.packetMs, channel: request.channel, sources: request.sources }));
    computeMs += performance.now() - started;
    const packets = points.reduce((total, point) => total + point.packets, 0);
    onProgress({ points: [...points], packetsPerSecond: computeMs > 0 ? (packets / computeMs) * 1000 : 0 });
  }
}

/** parseKs reads a list like "1,2,5-8" into distinct, sorted values of k; it throws naming the bad part. */
export function parseKs(text: string): number[] {
  const ks = new Set<number>();
  for (const part of text.split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    const first = Number(match?.[1]);
    const last = Number(match?.[2] ?? match?.[1]);
    if (!match || first < 1 || last < first || last > 1000) {
      throw new Error(`"${part}" is not a value of k from 1 to 1000, nor a range like 2-8.`);
    }
    for (let k = first; k <= last; k += 1) ks.add(k);
  }
  if (ks.size === 0) throw new Error('Give at least one value of k, e.g. 1,2,5,10.');
  return [...ks].sort((a, b) => a - b);
}
