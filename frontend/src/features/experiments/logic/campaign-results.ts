import { type BoxStats, boxStats, percentChange } from '../../../lib/statistics';
import { type CampaignItem, type FlowFigures, type RunListItem, fidelityVerdict, glossary } from '../../../shared/runs';
import { formatValue } from './parameter-values';

/** The per-flow figures a campaign's configurations are compared by, with their units. */
export const campaignMetrics = [
  { key: 'download_time_s', label: 'Download time', unit: 's', decimals: 3, help: glossary.downloadTime },
  { key: 'goodput_mbps', label: 'Goodput', unit: 'Mbit/s', decimals: 3, help: glossary.goodput },
  { key: 'retransmissions', label: 'Retransmissions', unit: 'packets', decimals: 1, help: glossary.retransmissions },
  { key: 'mean_rtt_ms', label: 'Mean RTT', unit: 'ms', decimals: 1, help: glossary.rtt },
] as const;

export type CampaignMetric = (typeof campaignMetrics)[number];
export type CampaignMetricKey = CampaignMetric['key'];

/** One finished run of a configuration: the figure compared. */
export interface RunPoint {
  runId: string;
  iteration: number;
  value: number;
  /** The host did not keep up with the run (its fidelity verdict): the point is kept, and counted. */
  hostLate: boolean;
  /** A run its time limit stopped: its download time is at least value (censored), as satlab compare takes it. */
  censored: boolean;
}

/** A configuration of the matrix and its finished runs. */
export interface Configuration {
  /** Its index in the matrix's Cartesian product. */
  index: number;
  /** Matrix path → value. */
  parameters: Record<string, unknown>;
  /** path=value, …, as the backend names it in its messages. */
  label: string;
  /** Its values only, for an axis whose title names the paths. */
  shortLabel: string;
  points: RunPoint[];
  /** null until a run finishes with the figure. */
  stats: BoxStats | null;
  /** With censored points: the figures of stats a longer time could raise, each then the least it can be. */
  atLeast: { median: boolean; mean: boolean };
}

/** A run of the campaign that gave no figure: it failed, or finished without it. */
export interface FailedRun {
  item: CampaignItem;
  configurationLabel: string;
  /** Why, in the backend's words where it gave them. */
  reason: string;
}

export interface CampaignResults {
  configurations: Configuration[];
  /** Counted and listed, never dropped silently. */
  failed: FailedRun[];
}

/** configurationLabel names a configuration by its parameters; the base scenario has none. */
export function configurationLabel(parameters: Record<string, unknown>): string {
  const entries = Object.entries(parameters);
  return entries.length === 0 ? 'the base scenario' : entries.map(([path, value]) => `${path}=${formatValue(value)}`).join(', ');
}

const shortLabelOf = (parameters: Record<string, unknown>) =>
  Object.values(parameters).map(formatValue).join(' · ') || 'the base scenario';

/**
 * runFigure is one run's figure: the value of its flow, or the mean over its flows when it has
 * several (each run weighs the same in its configuration); null when no flow has it.
 */
export function runFigure(flows: FlowFigures[], metric: CampaignMetricKey): number | null {
  const values = flows.map((flow) => flow[metric]).filter((value): value is number => value !== null);
  return values.length === 0 ? null : values.reduce((total, value) => total + value, 0) / values.length;
}

/**
 * censoredFigure is the least download time of a run its time limit stopped: the mean over its
 * flows, those of the stopped iteration at how long they had been sending. null where that bounds
 * nothing: another metric, a flow of that iteration that had finished (its time went with the
 * iteration) or had not started. As satlab compare's Metric.at_least.
 */
export function censoredFigure(run: RunListItem, metric: CampaignMetricKey): number | null {
  const stopped = run.timed_out;
  if (metric !== 'download_time_s' || !stopped || stopped.flows.length === 0) return null;
  const bounds = stopped.flows.map((flow) => (flow.finished ? null : flow.download_time_at_least_s));
  if (bounds.some((bound) => bound === null)) return null;
  const finished = run.flows.map((flow) => flow.download_time_s).filter((value): value is number => value !== null);
  const values = [...finished, ...(bounds as number[])];
  return values.reduce((total, value) => total + value, 0) / values.length;
}

/**
 * atLeastOf says which of a configuration's median and mean a longer time of its censored points
 * could raise: every figure grows with every value, so raising them far is the test.
 */
function atLeastOf(points: RunPoint[], stats: BoxStats | null): Configuration['atLeast'] {
  if (!stats || !points.some((point) => point.censored)) return { median: false, mean: false };
  const far = 2 * Math.max(...points.map((point) => point.value)) + 1;
  const raised = boxStats(points.map((point) => (point.censored ? far : point.value)));
  return { median: raised?.median !== stats.median, mean: true };
}

/**
 * campaignResults groups a campaign's finished runs by configuration (items from GET
 * api/campaigns/{id}, runs with their flows from GET api/runs?campaign_id=…), one point per run.
 * Items that are pending, running or cancelled are not results yet; failed ones, and runs done
 * without the figure, are listed with why. A run its time limit stopped is listed too, and its
 * download time is a censored point (censoredFigure): leaving it out would make a slow
 * configuration look fast.
 */
export function campaignResults(items: CampaignItem[], runs: RunListItem[], metric: CampaignMetricKey): CampaignResults {
  const runsById = new Map(runs.map((run) => [run.run_id, run]));
  const byIndex = new Map<number, Configuration>();
  const failed: FailedRun[] = [];
  const metricName = campaignMetrics.find((candidate) => candidate.key === metric)?.label.toLowerCase() ?? metric;
  for (const item of [...items].sort((a, b) => a.item_index - b.item_index)) {
    let configuration = byIndex.get(item.configuration);
    if (!configuration) {
      configuration = {
        index: item.configuration,
        parameters: item.parameters,
        label: configurationLabel(item.parameters),
        shortLabel: shortLabelOf(item.parameters),
        points: [],
        stats: null,
        atLeast: { median: false, mean: false },
      };
      byIndex.set(item.configuration, configuration);
    }
    const run = item.run_id === null ? undefined : runsById.get(item.run_id);
    if (item.status === 'failed') {
      const bound = run ? censoredFigure(run, metric) : null;
      const reason = run?.error ?? (run ? 'the run failed' : 'the run did not start: this host could not run its scenario');
      failed.push({
        item,
        configurationLabel: configuration.label,
        reason: bound === null ? reason : `${reason}; its ${metricName} counts as at least ${bound.toFixed(1)} s`,
      });
      if (run && bound !== null)
        configuration.points.push({ runId: run.run_id, iteration: item.iteration, value: bound, hostLate: fidelityVerdict(run) === 'late', censored: true });
    } else if (item.status === 'done' && run?.status === 'done') {
      const value = runFigure(run.flows, metric);
      if (value !== null)
        configuration.points.push({ runId: run.run_id, iteration: item.iteration, value, hostLate: fidelityVerdict(run) === 'late', censored: false });
      else {
        const errors = run.flows.map((flow) => flow.error).filter((error): error is string => error !== null);
        failed.push({
          item,
          configurationLabel: configuration.label,
          reason: `the run finished without a ${metricName}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`,
        });
      }
    }
  }
  const configurations = [...byIndex.values()].sort((a, b) => a.index - b.index);
  for (const configuration of configurations) {
    configuration.stats = boxStats(configuration.points.map((point) => point.value));
    configuration.atLeast = atLeastOf(configuration.points, configuration.stats);
  }
  return { configurations, failed };
}

/** A line of the comparison table. */
export interface ComparisonRow {
  configuration: Configuration;
  /**
   * The median against the baseline's, in %; null for the baseline itself, without both medians,
   * or with both censored (either way).
   */
  changePercent: number | null;
  /** 'at least': this median is censored; 'at most': the baseline's is; null: both exact. */
  changeBound: 'at least' | 'at most' | null;
  isBaseline: boolean;
}

/** comparisonRows compares each configuration's median with the baseline's (an index into configurations). */
export function comparisonRows(configurations: Configuration[], baseline: number): ComparisonRow[] {
  const base = configurations[baseline];
  const baselineMedian = base?.stats?.median ?? null;
  return configurations.map((configuration, index) => {
    const bound = configuration.atLeast.median ? 'at least' : base?.atLeast.median ? 'at most' : null;
    const open = configuration.atLeast.median && base?.atLeast.median;
    return {
      configuration,
      isBaseline: index === baseline,
      changePercent: index === baseline || open ? null : percentChange(configuration.stats?.median ?? null, baselineMedian),
      changeBound: index === baseline ? null : bound,
    };
  });
}
