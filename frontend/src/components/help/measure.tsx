import { useId } from 'react';
import { HelpTip } from './help-tip';

export interface MeasureProps {
  /** What is measured; the group's accessible name. */
  label: string;
  /** The value, with its unit. */
  value: string;
  /** What the figure means, shown on hover or focus of a "?" beside the label and read as the group's description. */
  help?: string;
}

/** Measure shows one figure as a term and its value, large enough for a projector; put it in a <dl className="counters">. */
export function Measure({ label, value, help }: MeasureProps) {
  const id = useId();
  return (
    <div className="counter" role="group" aria-labelledby={id} aria-describedby={help ? `${id}-help` : undefined}>
      <dt>
        <span id={id}>{label}</span>
        {help && <HelpTip term={label} text={help} id={`${id}-help`} />}
      </dt>
      <dd>{value}</dd>
    </div>
  );
}
