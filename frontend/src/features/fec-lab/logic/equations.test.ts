import { describe, expect, it } from 'vitest';
import { equationMatrix, liveSystem, reduceRows } from './equations';
import { gfMul } from './gf256';

describe('equationMatrix', () => {
  const coefficientsOf = (id: { repairKey: number; nss: number }) =>
    Uint8Array.from({ length: id.nss }, (_, offset) => 10 * (id.repairKey + 1) + offset);
  const repair = (label: string, repairKey: number, firstEsi: number, nss: number) => ({
    label,
    id: { repairKey, dt: 15, nss, firstEsi },
  });

  const missing = (esi: number) => ({ esi, givenUp: false });

  it('keeps the coefficients of missing sources only, column by ESI', () => {
    const matrix = equationMatrix([repair('R0', 0, 0, 3), repair('R1', 1, 2, 4)], [missing(4), missing(1)], coefficientsOf);
    expect(matrix.columns.map((column) => column.esi)).toEqual([1, 4]);
    expect(matrix.equations.map((equation) => [equation.label, equation.coefficients])).toEqual([
      ['R0', [11, 0]],
      ['R1', [0, 22]],
    ]);
  });

  it('drops repairs that involve no missing source', () => {
    const matrix = equationMatrix([repair('R0', 0, 0, 3), repair('R1', 1, 3, 3)], [missing(4)], coefficientsOf);
    expect(matrix.equations.map((equation) => equation.label)).toEqual(['R1']);
  });
});

describe('reduceRows', () => {
  it('turns a full-rank system into the identity', () => {
    expect(reduceRows([[1, 2], [3, 4]])).toEqual([[1, 0], [0, 1]]);
  });

  it('drops a row that depends on the others', () => {
    const row = [3, 7, 1];
    const dependent = row.map((value) => gfMul(value, 0x35));
    const reduced = reduceRows([row, dependent, [0, 0, 4]]);
    expect(reduced).toHaveLength(2);
    expect(reduced[1]).toEqual([0, 0, 1]);
    expect(reduced[0][0]).toBe(1);
  });

  it('leaves an empty system empty', () => {
    expect(reduceRows([])).toEqual([]);
  });
});

describe('liveSystem', () => {
  it('keeps the combinations of equations free of given-up sources, over the live columns', () => {
    const matrix = {
      columns: [
        { esi: 1, givenUp: true },
        { esi: 2, givenUp: false },
        { esi: 3, givenUp: false },
      ],
      equations: [
        { label: 'R0', id: { repairKey: 0, dt: 15, nss: 3, firstEsi: 1 }, coefficients: [1, 1, 0] },
        { label: 'R1', id: { repairKey: 1, dt: 15, nss: 3, firstEsi: 1 }, coefficients: [1, 0, 1] },
      ],
    };
    // R0 + R1 cancels source 1 and leaves source 2 + source 3: one usable equation, not zero.
    expect(liveSystem(matrix)).toEqual([[1, 1]]);
  });
});
