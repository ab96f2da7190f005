import { useId, useState } from 'react';
import { SelectField } from '../../../components/form';
import { useOverlaidRuns } from '../hooks/use-overlaid-runs';
import { overlayChart } from '../logic/overlay';
import { flowMetrics, RunCharts } from '../../../shared/runs';

export interface RunsOverlayProps {
  /** The runs picked in the list, in the order they were picked. */
  runIds: string[];
  /** Clears the pick. */
  onClear: () => void;
}

/** RunsOverlay draws one metric of several stored runs on one chart, a line (and a legend entry) per run. */
export function RunsOverlay({ runIds, onClear }: RunsOverlayProps) {
  const headingId = useId();
  const [metricId, setMetricId] = useState(flowMetrics[0].id);
  const { runs, errors } = useOverlaidRuns(runIds);
  const chart = overlayChart(runs, metricId);
  const end = Math.max(1, ...runs.flatMap(({ samples }) => samples.flows.map((row) => row.t_s)));
  return (
    <section className="panel runs-overlay" aria-labelledby={headingId}>
      <div className="run-head">
        <h2 id={headingId}>Runs compared</h2>
        <button type="button" onClick={onClear}>
          Clear the comparison
        </button>
      </div>
      <SelectField
        label="Metric"
        value={metricId}
        options={flowMetrics.map((metric) => ({ value: metric.id, label: metric.yLabel }))}
        onChange={setMetricId}
        hint="Each run's first iteration, from the start of its flows."
      />
      {errors.map((error) => (
        <p key={error} className="error" role="alert">
          {error}
        </p>
      ))}
      <RunCharts charts={[chart]} xDomain={[0, end]} source={`satlab runs ${runIds.join(', ')}, the first iteration of each`} />
    </section>
  );
}
