import { useId } from 'react';

export interface MeasureProps {
  /** What is measured; the group's accessible name. */
  label: string;
  /** The value, with its unit. */
  value: string;
}

/** Measure shows one figure as a term and its value, large enough for a projector; put it in a <dl className="counters">. */
export function Measure({ label, value }: MeasureProps) {
  const id = useId();
  return (
    <div className="counter" role="group" aria-labelledby={id}>
      <dt id={id}>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
