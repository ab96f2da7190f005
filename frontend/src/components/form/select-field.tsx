import { useId } from 'react';
import { FieldProblems, describedBy } from './field-problems';

export interface SelectFieldProps<Value extends string> {
  /** The visible label, also the select's accessible name. */
  label: string;
  /** The selected option's value. */
  value: Value;
  /** The options, in order; a disabled one shows but cannot be chosen. */
  options: readonly { value: Value; label: string; disabled?: boolean }[];
  /** Called with the newly selected value. */
  onChange: (value: Value) => void;
  /** Help shown under the field and read as its description. */
  hint?: string;
  /** What is wrong with the choice, shown under the field. */
  problems?: string[];
}

/** SelectField is a labelled drop-down list. */
export function SelectField<Value extends string>({ label, value, options, onChange, hint, problems = [] }: SelectFieldProps<Value>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={describedBy(hint && `${id}-hint`, problems.length > 0 && `${id}-problems`)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      <FieldProblems id={`${id}-problems`} problems={problems} />
    </div>
  );
}
