import type { RepairId } from '../../../lib/codec';
import type { FecRunView, RepairPacket } from './fec-run';
import { gfInv, gfMul } from './gf256';

/** One received repair seen as an equation over the source symbols the receiver still misses. */
export interface Equation {
  /** The repair's name on the time line, e.g. "R3". */
  label: string;
  id: RepairId;
  /** coefficients[c] multiplies the unknown in column c of the matrix; 0 where it does not appear. */
  coefficients: number[];
}

/** A column of the matrix: a source the receiver misses. */
export interface UnknownColumn {
  esi: number;
  /** True once the decoder gave the source up: it left the decoder's window unrebuilt. */
  givenUp: boolean;
}

/** The decoder's system as the lab draws it: one column per missing ESI, one row per received repair over them. */
export interface EquationMatrix {
  /** In ESI order, so the given-up columns (the oldest) come first. */
  columns: UnknownColumn[];
  equations: Equation[];
}

/**
 * equationMatrix keeps, of each received repair, the coefficients of the ESIs still missing (the
 * known ones move to the right-hand side) and drops repairs that no longer involve any of them.
 * coefficientsOf gives the RFC 8681 coefficients of a repair (from the codec).
 */
export function equationMatrix(
  repairs: { label: string; id: RepairId }[],
  columns: UnknownColumn[],
  coefficientsOf: (id: RepairId) => Uint8Array,
): EquationMatrix {
  const sorted = [...columns].sort((a, b) => a.esi - b.esi);
  const equations = repairs
    .map(({ label, id }) => {
      const windowCoefficients = coefficientsOf(id);
      const coefficients = sorted.map(({ esi }) => {
        const offset = esi - id.firstEsi;
        return offset >= 0 && offset < id.nss ? windowCoefficients[offset] : 0;
      });
      return { label, id, coefficients };
    })
    .filter((equation) => equation.coefficients.some((coefficient) => coefficient !== 0));
  return { columns: sorted, equations };
}

/**
 * liveSystem is what the decoder can still use: the reduced system over the sources not given up.
 * Eliminating the given-up columns first (they come first) leaves exactly the combinations of
 * equations free of them; rows whose pivot is a given-up source are of no use and go.
 */
export function liveSystem(matrix: EquationMatrix): number[][] {
  const givenUp = matrix.columns.filter((column) => column.givenUp).length;
  return reduceRows(matrix.equations.map((equation) => equation.coefficients))
    .filter((row) => row.findIndex((value) => value !== 0) >= givenUp)
    .map((row) => row.slice(givenUp));
}

/**
 * reduceRows brings rows to reduced row-echelon form over GF(2^8) (each pivot 1, alone in its
 * column) and drops rows that become all zero: what the decoder's elimination does to the system.
 */
export function reduceRows(rows: number[][]): number[][] {
  const reduced = rows.map((row) => [...row]);
  const columns = reduced[0]?.length ?? 0;
  let pivotRow = 0;
  for (let column = 0; column < columns && pivotRow < reduced.length; column += 1) {
    const found = reduced.findIndex((row, index) => index >= pivotRow && row[column] !== 0);
    if (found < 0) continue;
    [reduced[pivotRow], reduced[found]] = [reduced[found], reduced[pivotRow]];
    const inverse = gfInv(reduced[pivotRow][column]);
    reduced[pivotRow] = reduced[pivotRow].map((value) => gfMul(value, inverse));
    reduced.forEach((row, index) => {
      const factor = row[column];
      if (index === pivotRow || factor === 0) return;
      reduced[index] = row.map((value, c) => value ^ gfMul(factor, reduced[pivotRow][c]));
    });
    pivotRow += 1;
  }
  return reduced.slice(0, pivotRow);
}

/** viewEquations is the matrix of a run as it stands: its received repairs over its missing sources. */
export function viewEquations(view: FecRunView, coefficientsOf: (id: RepairId) => Uint8Array): EquationMatrix {
  const repairs = view.packets.filter((packet): packet is RepairPacket => packet.kind === 'repair' && !packet.lost);
  const columns = view.sources
    .filter((source) => source.state === 'missing' || source.state === 'given-up')
    .map((source) => ({ esi: source.esi, givenUp: source.state === 'given-up' }));
  return equationMatrix(repairs, columns, coefficientsOf);
}
