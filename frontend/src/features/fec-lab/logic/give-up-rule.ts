/**
 * The decoder's one give-up rule, as codec/src/decoder.c applies it. It holds the last W ESIs,
 * W = 2z rounded up to a power of two (its ring of slots: 32 for z = 9), behind the newest ESI it
 * has heard of (a source received, or the last ESI of a received repair's window). A source still
 * unknown when the newest ESI moves W or more past it leaves the ring and is given up, for good.
 * The decoder gives up only what it held: a source the ring never reached (the first packet heard
 * after it was already W past it, or it was lost before the first packet heard of) is never given
 * up, and stays missing. Everything the lab says about giving up (counters, legend, event log,
 * equations) comes from here; decoder-state.test.ts checks it against the codec at every step.
 */

/** decoderWindowEsis is W: how many ESIs the decoder holds, 2z rounded up to a power of two. */
export function decoderWindowEsis(z: number): number {
  let window = 1;
  while (window < 2 * z) window *= 2;
  return window;
}

/** giveUpRule states the rule for a window z in two sentences, with its numbers. */
export function giveUpRule(z: number): string {
  const window = decoderWindowEsis(z);
  const rounded = window === 2 * z ? '' : ', rounded up to a power of two';
  return (
    `The decoder holds the last ${window} ESIs (2 × z = ${2 * z}${rounded}) behind the newest it heard of: a lost source ` +
    `is given up, for good, once it hears of an ESI ${window} or more past it (a source, or the end of a repair's window). ` +
    `A source it never held (what first arrived after it was already ${window} past it) is not given up: it stays missing.`
  );
}

/**
 * DecoderWindow follows the ESIs the decoder holds, packet by packet, to name the sources it gives
 * up: the decoder itself only counts them.
 */
export class DecoderWindow {
  private newest?: number;
  /** The oldest ESI of the stream the decoder knows of: only ESIs from there on are counted as given up. */
  private first = 0;

  constructor(private readonly window: number) {}

  /**
   * hear takes a received packet's ESI range [lo, hi] (a source: lo = hi) and returns the ESIs that
   * leave the window on its arrival and were part of the stream: unknown ones among them are given up.
   */
  hear(lo: number, hi: number): number[] {
    if (this.newest === undefined) {
      this.newest = hi;
      this.first = lo;
      return [];
    }
    const leaving: number[] = [];
    if (hi > this.newest) {
      // The decoder retires at most a whole window: ESIs a jump skips never entered it.
      const steps = Math.min(hi - this.newest, this.window);
      for (let esi = this.newest - this.window + 1; esi <= this.newest - this.window + steps; esi += 1) {
        if (esi >= this.first) leaving.push(esi);
      }
      this.newest = hi;
    }
    if (this.newest - lo < this.window && lo < this.first) this.first = lo;
    return leaving;
  }
}

/** The newest ESI the decoder has heard of from these packets, received ones only; undefined before the first. */
export function newestHeardEsi(
  packets: readonly ({ lost: boolean } & ({ kind: 'source'; esi: number } | { kind: 'repair'; id: { firstEsi: number; nss: number } }))[],
): number | undefined {
  let newest: number | undefined;
  for (const packet of packets) {
    if (packet.lost) continue;
    const esi = packet.kind === 'source' ? packet.esi : packet.id.firstEsi + packet.id.nss - 1;
    newest = newest === undefined ? esi : Math.max(newest, esi);
  }
  return newest;
}
