import type { ChannelConfig, Codec } from '../../../lib/codec';

/** sampleLosses asks a fresh channel about count packets sent every packetMs; 1 marks a loss. */
export function sampleLosses(codec: Codec, channel: ChannelConfig, packetMs: number, count: number): Uint8Array {
  const model = codec.channel(channel);
  try {
    const lost = new Uint8Array(count);
    for (let index = 0; index < count; index += 1) {
      lost[index] = model.lost(Math.round(index * packetMs * 1000)) ? 1 : 0;
    }
    return lost;
  } finally {
    model.free();
  }
}

export interface BurstBin {
  /** Consecutive packets lost. */
  length: number;
  /** How many bursts had that length. */
  count: number;
}

/** burstHistogram counts the runs of consecutive losses by length, shortest first. */
export function burstHistogram(lost: Uint8Array): BurstBin[] {
  const counts = new Map<number, number>();
  let run = 0;
  for (let index = 0; index <= lost.length; index += 1) {
    if (index < lost.length && lost[index]) {
      run += 1;
    } else if (run > 0) {
      counts.set(run, (counts.get(run) ?? 0) + 1);
      run = 0;
    }
  }
  return [...counts].map(([length, count]) => ({ length, count })).sort((a, b) => a.length - b.length);
}

/** lossRate is the fraction of packets lost. */
export function lossRate(lost: Uint8Array): number {
  return lost.length === 0 ? 0 : lost.reduce((total, flag) => total + flag, 0) / lost.length;
}
