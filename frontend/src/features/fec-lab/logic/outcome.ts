/** The sentences that say where a run stands, before and after its last packet. */

export interface PayloadState {
  /** What is sent: the verdict names it. */
  kind: 'text' | 'image';
  /** The receiver holds every byte, equal to the original's. */
  identical: boolean;
  /** Every packet of the run is sent: no repair will come. */
  finished: boolean;
  /** ESIs of the sources the receiver lacks. */
  lacking: number[];
}

const holes = { text: '░ marks missing bytes', image: 'magenta marks missing bytes' };

/** payloadVerdict says whether the receiver holds the payload, and if not, whether it still may. */
export function payloadVerdict({ kind, identical, finished, lacking }: PayloadState): string {
  if (identical) return `The receiver holds the original ${kind}, byte for byte.`;
  if (!finished) return `The receiver does not hold the whole ${kind} yet (${holes[kind]}).`;
  const sources = `${lacking.length === 1 ? 'source' : 'sources'} ${lacking.join(', ')}`;
  return `The run is over: the receiver lacks ${sources}, and no repair will come to rebuild ${lacking.length === 1 ? 'it' : 'them'} (${holes[kind]}).`;
}

export interface SystemState {
  /** Missing sources the decoder still works on. */
  unknowns: number;
  /** Independent equations over them. */
  equations: number;
  /** Sources the decoder gave up. */
  givenUp: number;
  /** Every packet of the run is sent. */
  finished: boolean;
}

/** equationsSummary counts the decoder's unknowns and equations, and what that means now. */
export function equationsSummary({ unknowns, equations, givenUp, finished }: SystemState): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const gaveUp = givenUp > 0 ? ` ${givenUp} given up (more than 2 × z ESIs behind the newest one).` : '';
  if (unknowns === 0) return `No unknowns: nothing left to solve.${gaveUp}`;
  const system = `${plural(unknowns, 'unknown')}, ${plural(equations, 'independent equation')}`;
  const missing = unknowns - equations;
  const outlook = finished
    ? `: the run is over, no repair will come, so ${plural(missing, 'source')} ${missing === 1 ? 'stays' : 'stay'} lost.`
    : `: ${missing} more needed to solve them all.`;
  return `${system}${outlook}${gaveUp}`;
}
