import { useId } from 'react';

export interface SelectFieldProps<Value extends string> {
  /** The visible label, also the select's accessible name. */
  label: string;
  /** The selected option's value. */
  value: Value;
  /** The options, in order. */
  options: readonly { value: Value; label: string }[];
  /** Called with the newly selected value. */
  onChange: (value: Value) => void;
}

/** SelectField is a labelled drop-down list. */
export function SelectField<Value extends string>({ label, value, options, onChange }: SelectFieldProps<Value>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
