import { useEffect, useId, useState } from 'react';
import { FieldProblems, describedBy } from './field-problems';

export interface NumberFieldProps {
  /** The visible label, also the input's accessible name. */
  label: string;
  /** The current value; the field shows it unless the user is typing something else. */
  value: number;
  /** Called with each value that parses and lies within [min, max]. */
  onChange: (value: number) => void;
  /** Lowest accepted value. */
  min?: number;
  /** Highest accepted value. */
  max?: number;
  /** The increment of the arrow keys. */
  step?: number | 'any';
  /** Help shown under the field and read as its description. */
  hint?: string;
  /** What is wrong with the value, shown under the field. */
  problems?: string[];
}

/** NumberField is a labelled numeric input that only reports values inside its range. */
export function NumberField({ label, value, onChange, min, max, step = 'any', hint, problems = [] }: NumberFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => {
    setDraft((current) => (Number(current) === value ? current : String(value)));
  }, [value]);
  const parsed = Number(draft);
  const valid =
    draft.trim() !== '' && Number.isFinite(parsed) && (min === undefined || parsed >= min) && (max === undefined || parsed <= max);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        value={draft}
        min={min}
        max={max}
        step={step}
        aria-invalid={!valid || problems.length > 0}
        aria-describedby={describedBy(hint && `${id}-hint`, problems.length > 0 && `${id}-problems`)}
        onChange={(event) => {
          setDraft(event.target.value);
          const next = Number(event.target.value);
          const inRange = (min === undefined || next >= min) && (max === undefined || next <= max);
          if (event.target.value.trim() !== '' && Number.isFinite(next) && inRange) onChange(next);
        }}
      />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      <FieldProblems id={`${id}-problems`} problems={problems} />
    </div>
  );
}
