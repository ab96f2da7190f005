import { Measure } from '../../../components/help';
import type { FecCounters } from '../logic/fec-run';
import { fecGlossary } from '../logic/glossary';

export interface CountersPanelProps {
  /** The counters to show. */
  counters: FecCounters;
  /** The code's window, for the explanations. */
  z: number;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const milliseconds = (value?: number) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);

/** CountersPanel lists the run's counters as terms and values, each explained on hover or focus. */
export function CountersPanel({ counters, z }: CountersPanelProps) {
  const help = fecGlossary(z);
  const items: [string, string, string][] = [
    ['Sent', `${counters.sourcesSent + counters.repairsSent}`, help.sent],
    ['Sources', `${counters.sourcesSent}`, help.sources],
    ['Repairs', `${counters.repairsSent}`, help.repairs],
    ['Lost', `${counters.sourcesLost + counters.repairsLost}`, help.lost],
    ['Sources lost', `${counters.sourcesLost}`, help.sourcesLost],
    ['Rebuilt', `${counters.rebuilt}`, help.rebuilt],
    ['Still missing', `${counters.missing}`, help.stillMissing],
    ['Given up', `${counters.givenUp}`, help.givenUp],
    ['Residual loss', percent(counters.residualLoss), help.residualLoss],
    ['Overhead', percent(counters.overhead), help.overhead],
    ['Decoding delay, mean', milliseconds(counters.meanDecodingDelayMs), help.decodingDelay],
    ['Decoding delay, max', milliseconds(counters.maxDecodingDelayMs), help.decodingDelay],
  ];
  return (
    <dl className="counters">
      {items.map(([label, value, explanation]) => (
        <Measure key={label} label={label} value={value} help={explanation} />
      ))}
    </dl>
  );
}
