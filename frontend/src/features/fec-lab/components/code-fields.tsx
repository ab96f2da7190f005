import { NumberField } from '../../../components/form';
import type { CodeProblems } from '../../../lib/code-limits';

export interface CodeParams {
  k: number;
  z: number;
  symbolBytes: number;
}

export interface CodeFieldsProps {
  /** The code's parameters as the lab holds them. */
  params: CodeParams;
  /** Called with the fields that changed, as typed: a value the codec refuses comes back in problems. */
  onChange: (patch: Partial<CodeParams>) => void;
  /** What is refused, by field (codeProblems), shown beside each field. */
  problems: CodeProblems;
}

/** The redundancy settings of the studies behind satlab, and the classic small example. */
export const codePresets: { k: number; z: number }[] = [
  { k: 3, z: 9 },
  { k: 10, z: 100 },
  { k: 5, z: 100 },
  { k: 2, z: 100 },
];

/** CodeFields edits the S(k,z) schedule and the symbol size. */
export function CodeFields({ params, onChange, problems }: CodeFieldsProps) {
  return (
    <fieldset>
      <legend>Code S(k,z)</legend>
      <div className="preset-buttons" role="group" aria-label="Redundancy presets">
        {codePresets.map(({ k, z }) => (
          <button
            key={`${k},${z}`}
            type="button"
            aria-pressed={params.k === k && params.z === z}
            onClick={() => onChange({ k, z })}
          >
            S({k},{z})
          </button>
        ))}
      </div>
      <NumberField label="k, sources per repair" value={params.k} onChange={(k) => onChange({ k })} problems={problems.k} />
      <NumberField label="z, window size" value={params.z} onChange={(z) => onChange({ z })} problems={problems.z} />
      <NumberField
        label="Symbol size (bytes)"
        value={params.symbolBytes}
        onChange={(symbolBytes) => onChange({ symbolBytes })}
        hint={`Overhead 1/(k+1) = ${(100 / (params.k + 1)).toFixed(1)} %`}
        problems={problems.symbolBytes}
      />
    </fieldset>
  );
}
