import { useId, useState } from 'react';
import type { DecoderState } from '../logic/decoder-state';
import { type EquationMatrix, liveSystem } from '../logic/equations';
import { equationsSummary } from '../logic/outcome';

export interface EquationsTableProps {
  /** The received repairs as equations over the sources still missing. */
  matrix: EquationMatrix;
  /** Where the decoder stands: what the summary above the table states. */
  state: DecoderState;
  /** The code's window, for the give-up rule. */
  z: number;
}

const hex = (value: number) => value.toString(16).padStart(2, '0');

/**
 * EquationsTable shows the decoder's system: a column per missing source, a row per received repair
 * that involves one, each cell the RFC 8681 coefficient in hexadecimal. The reduced view is what the
 * decoder can still use, after Gaussian elimination over GF(2^8): once a row is a single 1, that
 * source is rebuilt and its column leaves the table.
 */
export function EquationsTable({ matrix, state, z }: EquationsTableProps) {
  const [reduced, setReduced] = useState(false);
  const id = useId();
  const live = matrix.columns.filter((column) => !column.givenUp);
  const system = liveSystem(matrix);
  const columns = reduced ? live : matrix.columns;
  const rows = reduced
    ? system.map((coefficients, index) => ({ name: `row ${index + 1}`, coefficients }))
    : matrix.equations.map((equation) => ({
        name: `${equation.label} [${equation.id.firstEsi},${equation.id.firstEsi + equation.id.nss - 1}]`,
        coefficients: equation.coefficients,
      }));
  return (
    <div className="equations">
      <div className="segmented" role="radiogroup" aria-label="Equations shown">
        {[false, true].map((option) => (
          <label key={String(option)}>
            <input type="radio" name={`${id}-form`} checked={reduced === option} onChange={() => setReduced(option)} />
            {option ? 'Reduced (what the decoder can use)' : 'As received'}
          </label>
        ))}
      </div>
      <p className="equations-summary">
        {equationsSummary(state, z)}
      </p>
      {columns.length > 0 && rows.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="group" aria-labelledby={`${id}-caption`}>
          <p id={`${id}-caption`} className="hint">
            Coefficients over the missing sources, in hexadecimal (· is 0)
          </p>
          <table aria-labelledby={`${id}-caption`}>
            <thead>
              <tr>
                <th scope="col">Equation</th>
                {columns.map((column) => (
                  <th scope="col" key={column.esi} className={column.givenUp ? 'given-up' : undefined}>
                    {column.esi}
                    {column.givenUp && <span className="visually-hidden"> (given up)</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.name}>
                  <th scope="row">{row.name}</th>
                  {row.coefficients.map((coefficient, column) => (
                    <td
                      key={columns[column].esi}
                      className={[coefficient === 0 && 'zero', columns[column].givenUp && 'given-up'].filter(Boolean).join(' ') || undefined}
                    >
                      {coefficient === 0 ? '·' : hex(coefficient)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
