import { useId } from 'react';
import type { FecCounters } from '../logic/fec-run';

export interface CountersPanelProps {
  /** The counters to show. */
  counters: FecCounters;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const milliseconds = (value?: number) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);

/** CountersPanel lists the run's counters as terms and values, large enough for a projector. */
export function CountersPanel({ counters }: CountersPanelProps) {
  const id = useId();
  const items: [string, string][] = [
    ['Sent', `${counters.sourcesSent + counters.repairsSent}`],
    ['Sources', `${counters.sourcesSent}`],
    ['Repairs', `${counters.repairsSent}`],
    ['Lost', `${counters.sourcesLost + counters.repairsLost}`],
    ['Sources lost', `${counters.sourcesLost}`],
    ['Rebuilt', `${counters.rebuilt}`],
    ['Still missing', `${counters.missing}`],
    ['Given up', `${counters.givenUp}`],
    ['Residual loss', percent(counters.residualLoss)],
    ['Overhead', percent(counters.overhead)],
    ['Decoding delay, mean', milliseconds(counters.meanDecodingDelayMs)],
    ['Decoding delay, max', milliseconds(counters.maxDecodingDelayMs)],
  ];
  return (
    <dl className="counters">
      {items.map(([term, value], index) => (
        <div key={term} className="counter" role="group" aria-labelledby={`${id}-${index}`}>
          <dt id={`${id}-${index}`}>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
