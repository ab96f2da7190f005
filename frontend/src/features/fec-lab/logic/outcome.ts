/** The sentences that say where a run stands, before and after its last packet. */
import { type DecoderState, stayLost } from './decoder-state';
import { giveUpRule } from './give-up-rule';

export interface PayloadState {
  /** What is sent: the verdict names it. */
  kind: 'text' | 'image';
  /** The receiver holds every byte, equal to the original's. */
  identical: boolean;
  /** Source packets sent so far (ESIs 0 to sourcesSent - 1). */
  sourcesSent: number;
  /** Every packet of the run is sent: no repair will come. */
  finished: boolean;
  /** ESIs of the sources the receiver lacks, those not sent yet included. */
  lacking: number[];
  /** Source packets the payload takes. */
  sourceCount: number;
}

const holes = { text: '░ marks missing bytes', image: 'magenta marks missing bytes' };

/** lacksSomething is true when the receiver lacks a source it should hold by now: the verdict then warns. */
export function lacksSomething({ identical, sourcesSent, finished, lacking }: PayloadState): boolean {
  return !identical && (finished || lacking.some((esi) => esi < sourcesSent));
}

/**
 * payloadVerdict says whether the receiver holds the payload, and if not, whether it still may;
 * before a loss it does not say that something is missing.
 */
export function payloadVerdict({ kind, identical, sourcesSent, finished, lacking, sourceCount }: PayloadState): string {
  if (identical) return `The receiver holds the original ${kind}, byte for byte.`;
  const sources = (esis: number[]) => `${esis.length === 1 ? 'source' : 'sources'} ${esis.join(', ')}`;
  if (!finished) {
    if (sourcesSent === 0) return `Nothing is sent yet: press Step or Play to send the ${kind}.`;
    const lackingSent = lacking.filter((esi) => esi < sourcesSent);
    if (lackingSent.length === 0) return `The receiver holds every source sent so far, ${sourcesSent} of ${sourceCount}.`;
    return `The receiver lacks ${sources(lackingSent)} of those sent so far: a later repair may rebuild them (${holes[kind]}).`;
  }
  return `The run is over: the receiver lacks ${sources(lacking)}, and no repair will come to rebuild ${lacking.length === 1 ? 'it' : 'them'} (${holes[kind]}).`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * equationsSummary says what the decoder holds and what that means now, every count from its
 * state: the unknowns are the sources still missing (the counters' "Still missing", the payload's
 * holes but the given-up ones), the equations the rank of what it received over them.
 */
export function equationsSummary(state: DecoderState, z: number): string {
  const { stillMissing, givenUp, equations, solvable } = state;
  const gaveUp = givenUp.length > 0 ? ` ${givenUp.length} given up (${givenUp.join(', ')}). ${giveUpRule(z)}` : '';
  const unknowns = stillMissing.length;
  if (unknowns === 0) return `No unknowns: nothing left to solve.${gaveUp}`;
  const them = unknowns === 1 ? 'it' : 'them';
  const over =
    equations === 0
      ? `no equation over ${them}`
      : `${plural(equations, 'independent equation')} over ${them}${solvable === 0 ? ', none naming a single one' : ''}`;
  const system = `${plural(unknowns, 'unknown')} (${stillMissing.join(', ')}), ${over}`;
  const lost = stayLost(state);
  if (lost === undefined) {
    return `${system}: ${plural(unknowns - equations, 'more equation')} needed to solve ${unknowns === 1 ? 'it' : 'them all'}.${gaveUp}`;
  }
  const stay = lost === unknowns ? (unknowns === 1 ? 'it stays' : `all ${unknowns} stay`) : `${lost} stay`;
  return `${system}: the run is over and no repair will come, so ${stay} lost.${gaveUp}`;
}
