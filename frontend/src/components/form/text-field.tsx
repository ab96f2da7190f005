import { useId } from 'react';
import { FieldProblems, describedBy } from './field-problems';

export interface TextFieldProps {
  /** The visible label, also the input's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Lines of a multi-line field (a textarea); one line when absent. */
  rows?: number;
  /** An example shown while the field is empty. */
  placeholder?: string;
  /** Help shown under the field and read as its description. */
  hint?: string;
  /** What is wrong with the text, shown under the field. */
  problems?: string[];
}

/** TextField is a labelled text input, or textarea with rows, for names, paths and overrides (monospace, no spell checks). */
export function TextField({ label, value, onChange, rows, placeholder, hint, problems = [] }: TextFieldProps) {
  const id = useId();
  const common = {
    id,
    value,
    placeholder,
    spellCheck: false,
    autoComplete: 'off',
    className: 'code-input',
    'aria-invalid': problems.length > 0 || undefined,
    'aria-describedby': describedBy(hint && `${id}-hint`, problems.length > 0 && `${id}-problems`),
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(event) => onChange(event.target.value)} />
      )}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      <FieldProblems id={`${id}-problems`} problems={problems} />
    </div>
  );
}
