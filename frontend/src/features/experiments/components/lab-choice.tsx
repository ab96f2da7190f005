import { SelectField } from '../../../components/form';
import type { Lab } from '../../../shared/runs';
import type { LabState } from '../hooks/use-lab';

export interface LabChoiceProps {
  /** The labs the backend lists (GET api/labs). */
  labs: Lab[];
  /** The chosen lab, loaded (useLab). */
  lab: LabState;
  /** Called with the name of the lab picked. */
  onChange: (name: string) => void;
  /** The backend's problems with the lab field. */
  problems: string[];
}

/** LabChoice picks a lab and shows its description, why it did not load, or its scenario file. */
export function LabChoice({ labs, lab, onChange, problems }: LabChoiceProps) {
  return (
    <>
      <SelectField
        label="Lab"
        value={lab.name}
        options={labs.map((candidate) => ({
          value: candidate.name,
          label: candidate.error === null ? candidate.name : `${candidate.name} (does not load)`,
          disabled: candidate.error !== null,
        }))}
        onChange={onChange}
        problems={problems}
      />
      <p className="lab-description">
        {labs.find((candidate) => candidate.name === lab.name)?.description ?? 'The backend has no labs (its labs/ directory is empty).'}
      </p>
      {lab.error && (
        <p className="error" role="alert">
          {lab.error}
        </p>
      )}
      {lab.detail && (
        <details>
          <summary>Scenario file labs/{lab.name}.yaml</summary>
          <pre className="scenario-text">{lab.detail.text}</pre>
        </details>
      )}
    </>
  );
}
