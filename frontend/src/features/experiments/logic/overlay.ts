import { type Run, type RunSamples, type ChartSpec, type Series, clientView, flowLabels, flowMetrics, iterationsOf, seriesOf } from '../../../shared/runs';

/** A stored run with its samples, as the overlay draws it. */
export interface OverlaidRun {
  run: Run;
  samples: RunSamples;
}

/**
 * overlayChart puts one metric of several runs on one chart: a line per run (per flow, for runs of
 * several flows) of each run's first iteration, named by the run so that the legend tells them apart.
 * A flow split by a PEP is drawn by the connection its client sees, as a flow end to end is.
 */
export function overlayChart(runs: OverlaidRun[], metricId: string): ChartSpec {
  const { value, ...metric } = flowMetrics.find((candidate) => candidate.id === metricId) ?? flowMetrics[0];
  const series: Series[] = runs.flatMap(({ run, samples }) => {
    const iteration = iterationsOf(samples)[0] ?? 0;
    const labels = flowLabels(run.scenario);
    const rows = clientView(samples.flows);
    const flows = [...new Set(rows.filter((row) => row.iteration === iteration).map((row) => row.flow))].sort((a, b) => a - b);
    return seriesOf(
      rows,
      iteration,
      flows.map((flow) => ({
        key: `${run.run_id}-${flow}`,
        label: `run ${run.run_id} · ${run.name}${flows.length > 1 ? `, ${labels[flow]}` : ` ${(labels[flow] ?? '').replace(/^flow \d+ /, '')}`}`,
        includes: (row) => row.flow === flow,
        value,
      })),
    );
  });
  return { ...metric, title: `${metric.title.replace(/ per flow$/, '')}, runs overlaid`, series };
}
