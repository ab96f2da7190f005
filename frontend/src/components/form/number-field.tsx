import { useEffect, useId, useState } from 'react';
import { FieldProblems, describedBy } from './field-problems';
import { numberProblem } from './number-problem';

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
  /** Only whole numbers; by default when step is 1. */
  integer?: boolean;
  /** Help shown under the field and read as its description. */
  hint?: string;
  /** What is wrong with the value, shown under the field. */
  problems?: string[];
  /**
   * Called with a sentence saying why the text on show is not a value the field accepts (then
   * onChange was not called, and the value is not what the field shows), and with null once it is
   * again or the field goes: a form refuses to send while a field reports a problem.
   */
  onProblem?: (problem: string | null) => void;
}

/** NumberField is a labelled numeric input that only reports values inside its range, and says why it refuses the others. */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step = 'any',
  integer = step === 1,
  hint,
  problems = [],
  onProblem,
}: NumberFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => {
    setDraft((current) => (Number(current) === value ? current : String(value)));
  }, [value]);
  const limit = { min, max, integer };
  const ownProblem = numberProblem(draft, label, limit);
  useEffect(() => onProblem?.(ownProblem), [onProblem, ownProblem]);
  useEffect(() => () => onProblem?.(null), [onProblem]);
  // A limit that moved (z for k) can make the text on show acceptable without a keystroke: it is
  // then the value, as if typed. Only when acceptability changes: the draft follows value otherwise.
  const acceptable = ownProblem === null;
  useEffect(() => {
    if (acceptable && Number(draft) !== value) onChange(Number(draft));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a change of acceptability only, as said above
  }, [acceptable]);
  const shownProblems = ownProblem ? [ownProblem, ...problems] : problems;
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
        aria-invalid={shownProblems.length > 0}
        aria-describedby={describedBy(hint && `${id}-hint`, shownProblems.length > 0 && `${id}-problems`)}
        onChange={(event) => {
          setDraft(event.target.value);
          if (numberProblem(event.target.value, label, limit) === null) onChange(Number(event.target.value));
        }}
      />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      <FieldProblems id={`${id}-problems`} problems={shownProblems} />
    </div>
  );
}
