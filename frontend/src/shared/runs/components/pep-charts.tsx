import { useId, useMemo } from 'react';
import type { RunSamples } from '../api/types';
import { lastPepTime, pepCharts } from '../logic/pep-series';
import { RunCharts } from './run-charts';

export interface PepChartsProps {
  /** The run's samples, live or stored. */
  samples: RunSamples;
  /** The iteration shown. */
  iteration: number;
  /** Each flow's name, by index (flowLabels). */
  labels: string[];
  /** The time axis of the run's other charts, in seconds; stretched to the PEPs' last counters. */
  xDomain: [number, number];
  /** Where the samples come from, each chart's figure caption. */
  source: string;
}

/**
 * PepCharts draws what the split-TCP PEPs did with an iteration's flows: the bytes each segment
 * carried and the bytes each PEP held, over time; nothing for an iteration whose flows no PEP split.
 */
export function PepCharts({ samples, iteration, labels, xDomain, source }: PepChartsProps) {
  const headingId = useId();
  const charts = useMemo(() => pepCharts(samples, iteration, labels), [samples, iteration, labels]);
  if (charts.length === 0) return null;
  const end = Math.max(xDomain[1], lastPepTime(samples, iteration) ?? 0);
  return (
    <section className="pep-charts" aria-labelledby={headingId}>
      <h3 id={headingId}>The split-TCP PEP over time</h3>
      <RunCharts charts={charts} xDomain={[xDomain[0], end]} source={source} />
    </section>
  );
}
