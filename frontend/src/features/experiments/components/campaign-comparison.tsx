import { useId, useMemo, useState } from 'react';
import { BoxPlot } from '../../../components/charts';
import { SelectField } from '../../../components/form';
import { type CampaignItem, type RunListItem, formatNumber, hostLateNote } from '../../../shared/runs';
import { paths } from '../../../config/paths';
import {
  type CampaignMetricKey,
  type Configuration,
  type RunPoint,
  campaignMetrics,
  campaignResults,
  comparisonRows,
} from '../logic/campaign-results';
import { formatChange } from '../logic/format';
import { formatValue } from '../logic/parameter-values';

export interface CampaignComparisonProps {
  /** The campaign, named in its box plot's figure caption. */
  campaignId: string;
  /** The campaign's items (configuration, iteration, parameters, run). */
  items: CampaignItem[];
  /** Its runs, with their per-flow summaries. */
  runs: RunListItem[];
  /** The matrix's paths, in order: one column each. */
  parameters: string[];
}

/**
 * CampaignComparison compares a campaign's configurations by one figure of their finished runs:
 * a box plot with every run as a point, a table of medians and means with each median's change
 * against a baseline configuration, and the runs that gave no figure, with why. A run its time
 * limit stopped is a hollow point at the least its download time can be, and a figure it could
 * raise reads "≥".
 */
export function CampaignComparison({ campaignId, items, runs, parameters }: CampaignComparisonProps) {
  const id = useId();
  const [metricKey, setMetricKey] = useState<CampaignMetricKey>('download_time_s');
  const [pickedBaseline, setPickedBaseline] = useState(0);
  const metric = campaignMetrics.find((candidate) => candidate.key === metricKey) ?? campaignMetrics[0];
  const { configurations, failed } = useMemo(() => campaignResults(items, runs, metricKey), [items, runs, metricKey]);
  const baseline = Math.min(pickedBaseline, Math.max(configurations.length - 1, 0));
  const rows = comparisonRows(configurations, baseline);
  const points = configurations.flatMap((configuration) => configuration.points.map((point) => ({ ...point, configuration: configuration.index })));
  const failedOf = (index: number) => failed.filter((run) => run.item.configuration === index).length;
  const lateOf = (configuration: Configuration) => configuration.points.filter((point) => point.hostLate).length;
  const figure = (value: number | null | undefined) => formatNumber(value, metric.decimals);
  // A figure a censored run (stopped at its time limit) could raise is its least.
  const least = (atLeast: boolean, value: number | null | undefined) => `${atLeast && value !== null && value !== undefined ? '≥' : ''}${figure(value)}`;
  const change = (percent: number | null, bound: 'at least' | 'at most' | null) =>
    `${percent !== null && bound ? (bound === 'at least' ? '≥' : '≤') : ''}${formatChange(percent)}`;
  const name = metric.label.toLowerCase();

  return (
    <div className="campaign-comparison">
      <h3>Results</h3>
      <div className="comparison-controls">
        <SelectField
          label="Figure"
          value={metricKey}
          options={campaignMetrics.map((candidate) => ({ value: candidate.key, label: `${candidate.label}, ${candidate.unit}` }))}
          onChange={setMetricKey}
          hint={`${metric.help} Per run: its flow's, or the mean of its flows.`}
        />
        <SelectField
          label="Baseline"
          value={String(baseline)}
          options={configurations.map((configuration, index) => ({ value: String(index), label: configuration.label }))}
          onChange={(value) => setPickedBaseline(Number(value))}
          hint="The configuration the others are compared with."
        />
      </div>
      <BoxPlot<RunPoint & { configuration: number }>
        title={`${metric.label} per configuration`}
        source={`satlab campaign ${campaignId}: its finished runs, a run's figure the mean of its flows`}
        pointLabel="a run"
        groups={configurations.map((configuration) => ({ key: String(configuration.index), label: configuration.shortLabel }))}
        data={points}
        group={(point) => String(point.configuration)}
        value={(point) => point.value}
        describe={(point) =>
          `run ${point.runId}, iteration ${point.iteration}: ${point.censored ? 'at least ' : ''}${figure(point.value)} ${metric.unit}${point.hostLate ? ' (the host did not keep up)' : ''}`
        }
        censored={(point) => point.censored}
        censoredLabel="a run the time limit stopped (at least)"
        xLabel={parameters.join(' · ') || 'configuration'}
        yLabel={`${metric.label}, ${metric.unit}`}
        formatValue={(value) => `${figure(value)} ${metric.unit}`}
      />
      <h3 id={`${id}-comparison`}>Comparison of configurations</h3>
      <div className="table-scroll">
        <table className="results comparison-table" aria-labelledby={`${id}-comparison`}>
          <thead>
            <tr>
              {parameters.length > 0 ? (
                parameters.map((path) => (
                  <th key={path} scope="col">
                    {path}
                  </th>
                ))
              ) : (
                <th scope="col">Configuration</th>
              )}
              <th scope="col">Runs</th>
              <th scope="col">Failed runs</th>
              <th scope="col" title={hostLateNote}>
                Runs where the host fell behind
              </th>
              <th scope="col">
                Median {name}, {metric.unit}
              </th>
              <th scope="col">
                Mean {name}, {metric.unit}
              </th>
              <th scope="col">Median against the baseline, %</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ configuration, changePercent, changeBound, isBaseline }) => (
              <tr key={configuration.index} className={isBaseline ? 'studied' : undefined}>
                {parameters.length > 0 ? (
                  parameters.map((path, index) =>
                    index === 0 ? (
                      <th key={path} scope="row">
                        {formatValue(configuration.parameters[path])}
                      </th>
                    ) : (
                      <td key={path}>{formatValue(configuration.parameters[path])}</td>
                    ),
                  )
                ) : (
                  <th scope="row">{configuration.label}</th>
                )}
                <td>{configuration.stats?.n ?? 0}</td>
                <td>{failedOf(configuration.index)}</td>
                <td>{lateOf(configuration)}</td>
                <td>{least(configuration.atLeast.median, configuration.stats?.median)}</td>
                <td>{least(configuration.atLeast.mean, configuration.stats?.mean)}</td>
                <td>{isBaseline ? 'baseline' : change(changePercent, changeBound)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 id={`${id}-failed`}>Failed runs: {failed.length}</h3>
      {failed.length === 0 ? (
        <p className="muted">Every finished run gave its {name}.</p>
      ) : (
        <ul className="failed-runs" aria-labelledby={`${id}-failed`}>
          {failed.map(({ item, configurationLabel, reason }) => (
            <li key={item.item_index}>
              {configurationLabel}, iteration {item.iteration}:{' '}
              {item.run_id ? <a href={paths.experiments.run(item.run_id)}>run {item.run_id}</a> : 'no run'}: {reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
