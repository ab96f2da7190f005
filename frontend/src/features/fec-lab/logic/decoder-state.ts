import { type EquationMatrix, liveSystem } from './equations';
import type { FecRunView } from './fec-run';

/** Where the decoder stands, as the equations panel states it: every count from the decoder's own state. */
export interface DecoderState {
  /** ESIs of the lost sources neither rebuilt nor given up, in order: the unknowns the decoder still holds. */
  stillMissing: number[];
  /** ESIs of the sources the decoder gave up. */
  givenUp: number[];
  /** Lost sources the decoder rebuilt. */
  rebuilt: number;
  /** Rank of the received equations restricted to the still-missing sources. */
  equations: number;
  /**
   * Still-missing sources that a reduced equation names alone. The decoder rebuilds such a source
   * the moment its equation appears, so this is 0 unless the picture and the decoder disagree.
   */
  solvable: number;
  /** Every packet is sent: no equation will come, whatever is still missing stays lost. */
  finished: boolean;
}

/** decoderState reads the decoder's position from a run and the matrix of its received repairs. */
export function decoderState(view: FecRunView, matrix: EquationMatrix): DecoderState {
  const system = liveSystem(matrix);
  const esisIn = (state: 'missing' | 'given-up') =>
    view.sources.filter((source) => source.state === state).map((source) => source.esi);
  return {
    stillMissing: esisIn('missing'),
    givenUp: esisIn('given-up'),
    rebuilt: view.sources.filter((source) => source.state === 'rebuilt').length,
    equations: system.length,
    solvable: system.filter((row) => row.filter((value) => value !== 0).length === 1).length,
    finished: view.finished,
  };
}

/** stayLost is how many still-missing sources no equation can rebuild once the run is over; undefined while it goes on. */
export function stayLost(state: DecoderState): number | undefined {
  return state.finished ? state.stillMissing.length - state.solvable : undefined;
}
