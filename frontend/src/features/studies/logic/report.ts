import {
  type CheckComparison,
  type Configuration,
  EXPERIMENT,
  type Experiment,
  type MetricFigures,
  type ReportCheck,
  type ReportConfiguration,
  type ReportRow,
  type Selection,
  type Study,
  type StudyConfiguration,
  type StudyReport,
} from '../api/types';

/**
 * What the Studies page shows of a report, as plain data: the rows of its table, the axes worth
 * naming, the box plots, the checks' bounds and where the report comes from.
 */

/** A figure as the page prints it: two decimals, a dash where there is none. */
export const formatFigure = (value: number | null | undefined, decimals = 2) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(decimals);

/**
 * tableRows is one row per published figure: the report's, or without a report the published
 * figures alone (satlab's side empty).
 */
export function tableRows(study: Study, report: StudyReport | null): ReportRow[] {
  if (report) return report.rows;
  return study.published.map((figure) => ({
    ...figure,
    published: figure.value,
    satlab: null,
    q1: null,
    q3: null,
    published_std: null,
    satlab_std: null,
    n: 0,
    runs: null,
    failed: 0,
    timed_out: null,
    satlab_at_least: [],
    satlab_at_most: null,
    ratio: null,
    band: null,
    band_reason: null,
    in_band: null,
    flags: [],
    explanation: null,
  }));
}

/** An experiment as the page shows it ('' and the study's own axes for a study without experiments). */
export interface ExperimentPart extends Experiment {
  name: string;
}

/** experimentParts are the study's experiments, in order; a study without any is one over every axis. */
export function experimentParts(study: Study): ExperimentPart[] {
  const names = Object.keys(study.experiments ?? {});
  if (names.length === 0) return [{ name: '', title: '', axes: study.axes, quick: study.quick.only }];
  return names.map((name) => ({ name, ...study.experiments[name] }));
}

/**
 * reportParts are the parts a report is laid out in: the study's experiments, or, for a report
 * made before its recipe had experiments (no configuration of it names one), one part over every
 * axis, so that an older shipped report still shows every figure it holds.
 */
function reportParts(study: Study, report: StudyReport | null): ExperimentPart[] {
  const parts = experimentParts(study);
  const older = report !== null && parts[0].name !== '' && report.configurations.length > 0 &&
    report.configurations.every((entry) => !entry.configuration[EXPERIMENT]);
  return older ? [{ name: '', title: '', axes: study.axes, quick: study.quick.only }] : parts;
}

/** studyColumns are what names a configuration and their levels: the experiments (if any), then the axes. */
export const studyColumns = (study: Study): Selection =>
  experimentParts(study)[0].name ? { [EXPERIMENT]: Object.keys(study.experiments), ...study.axes } : study.axes;

/** One line of an experiment's table: a configuration (and a spread: a line of its own), a figure per metric. */
export interface TableLine {
  configuration: Configuration;
  /** 'median' or 'mean' (the central figures share a line), or 'std'. */
  statistic: string;
  /** Where its published figures come from. */
  source: string;
  /** Metric → the published figure beside satlab's (published null: satlab's alone). */
  cells: Record<string, ReportRow>;
}

/** One experiment's table: its lines, a column group per metric. */
export interface ExperimentTable {
  name: string;
  title: string;
  /** The metrics it shows, in the study's order. */
  metrics: string[];
  /** The axes that tell its lines apart, and the levels they all share, said once. */
  axes: string[];
  fixed: string;
  lines: TableLine[];
  /** The report's configurations of this experiment (for its box plots). */
  entries: ReportConfiguration[];
}

const configurationKey = (configuration: Configuration, columns: string[]) => columns.map((column) => configuration[column] ?? '').join('\u0000');

/**
 * experimentTables lays the published figures (and, with a report, satlab's figures of every
 * metric it measured) out per experiment: a line per configuration, a column group per metric.
 * A metric shows in an experiment's table if the study published it there or satlab measured it.
 */
export function experimentTables(study: Study, report: StudyReport | null): ExperimentTable[] {
  const columns = Object.keys(studyColumns(study));
  // The report's own metrics too: one made by an older recipe may have measured others.
  const metricOrder = [...new Set([...(study.metrics ?? []), ...study.published.map((figure) => figure.metric),
    ...(report?.rows ?? []).map((row) => row.metric)])];
  const rows = tableRows(study, report);
  return reportParts(study, report).flatMap((part) => {
    const ours = rows.filter((row) => (row.configuration[EXPERIMENT] ?? '') === part.name);
    const entries = (report?.configurations ?? []).filter((entry) => (entry.configuration[EXPERIMENT] ?? '') === part.name);
    const lines = new Map<string, TableLine>();
    const lineOf = (configuration: Configuration, statistic: string, source: string) => {
      const central = statistic === 'std' ? 'std' : 'central';
      const key = `${configurationKey(configuration, columns)}\u0000${central}`;
      const line = lines.get(key) ?? { configuration, statistic, source, cells: {} };
      lines.set(key, line);
      return line;
    };
    for (const row of ours) lineOf(row.configuration, row.statistic, row.source).cells[row.metric] = row;
    for (const entry of entries) {
      for (const [metric, figures] of Object.entries(configurationMetrics(entry))) {
        const line = lineOf(entry.configuration, 'median', '');
        if (figures.n === 0 || line.cells[metric]) continue;
        line.cells[metric] = {
          configuration: entry.configuration,
          metric,
          statistic: 'median',
          published: null,
          source: '',
          satlab: figures.median,
          q1: figures.q1,
          q3: figures.q3,
          published_std: null,
          satlab_std: null,
          n: figures.n,
          runs: figures.runs,
          failed: entry.failed,
          timed_out: timedOutOf(entry),
          satlab_at_least: rowBounds(figures),
          satlab_at_most: figures.at_most?.median ?? null,
          flags: [],
          explanation: null,
          ratio: null,
          band: null,
          band_reason: null,
          in_band: null,
        };
      }
    }
    const shown = [...lines.values()];
    if (shown.length === 0) return [];
    const present = new Set(shown.flatMap((line) => Object.keys(line.cells)));
    const configurations = shown.map((line) => line.configuration);
    const partAxes = Object.fromEntries(Object.entries(study.axes).filter(([axis]) => axis in part.axes));
    return [
      {
        name: part.name,
        title: part.title,
        metrics: metricOrder.filter((metric) => present.has(metric)),
        axes: variedAxes(partAxes, configurations),
        fixed: fixedLevels(partAxes, configurations),
        lines: shown,
        entries,
      },
    ];
  });
}

/**
 * variedAxes are the axes (in the study's order) whose level differs between the configurations:
 * those that tell them apart. The others are the same for all (fixedLevels), and said once.
 */
export function variedAxes(axes: Selection, configurations: Configuration[]): string[] {
  return Object.keys(axes).filter((axis) => new Set(configurations.map((configuration) => configuration[axis])).size > 1);
}

/** fixedLevels says in words the levels every configuration shares: "wifi none, flows 1". */
export function fixedLevels(axes: Selection, configurations: Configuration[]): string {
  const varied = variedAxes(axes, configurations);
  if (configurations.length === 0) return '';
  return Object.keys(axes)
    .filter((axis) => !varied.includes(axis))
    .map((axis) => `${axis} ${configurations[0][axis]}`)
    .join(', ');
}

/**
 * configurationLabel names a configuration by its levels of the given axes: "optical · tcp-cubic ·
 * S(5,100)" (an axis its experiment does not vary, level '', is left out).
 */
export const configurationLabel = (configuration: Configuration, axes: string[]) =>
  axes
    .map((axis) => configuration[axis])
    .filter(Boolean)
    .join(' · ');

/**
 * A run the time limit stopped counts at its bound (backend/satlab/studies/report.py): the
 * figures it could raise are the least they can be. Reports made before it carry no bounds.
 */
type Bounded = 'satlab' | 'q1' | 'q3';
export const satlabBounds = (row: ReportRow): Bounded[] => (row as { satlab_at_least?: Bounded[] }).satlab_at_least ?? [];

/** rowBounds are a metric's bounded figures as a row names them (its median is the row's satlab). */
function rowBounds(figures: MetricFigures): Bounded[] {
  const atLeast = (figures as { at_least?: string[] }).at_least ?? [];
  return (['median', 'q1', 'q3'] as const).filter((name) => atLeast.includes(name)).map((name) => (name === 'median' ? 'satlab' : name));
}

const timedOutOf = (entry: ReportConfiguration) => (entry as { timed_out?: number | null }).timed_out ?? null;

/** failedText is a row's failed runs, and of them timed out: " (2 failed, 2 timed out)"; '' for none. */
export function failedText(row: ReportRow): string {
  if (row.failed === 0) return '';
  const timedOut = (row as { timed_out?: number | null }).timed_out;
  return ` (${row.failed} failed${timedOut ? `, ${timedOut} timed out` : ''})`;
}

/**
 * satlabFigure is satlab's side of a row: "17.87 [17.87–17.88]" for a median with its IQR, "≥"
 * before a figure a timed-out run could raise.
 */
export function satlabFigure(row: ReportRow): string {
  if (row.satlab === null) return '–';
  const bounds = satlabBounds(row);
  const figure = (name: Bounded, value: number | null) => `${bounds.includes(name) ? '≥' : ''}${formatFigure(value)}`;
  const iqr = row.statistic === 'median' && row.q1 !== null && row.q3 !== null ? ` [${figure('q1', row.q1)}–${figure('q3', row.q3)}]` : '';
  return `${figure('satlab', row.satlab)}${iqr}`;
}

/** ratioText is a row's ratio to the published figure, with "≥" where satlab's is a bound. */
export const ratioText = (row: ReportRow) => `${satlabBounds(row).includes('satlab') && row.ratio !== null ? '≥' : ''}${formatFigure(row.ratio, 3)}`;

export type BandVerdict = 'in band' | 'out of band' | 'open' | 'not measured' | 'not judged';

/**
 * bandVerdict: medians are held to a band once measured, unless a timed-out run leaves it open
 * (satlab a bound whose range crosses the band); other statistics are reported, not judged.
 */
export function bandVerdict(row: ReportRow): BandVerdict {
  if (row.band === null) return 'not judged';
  if (row.in_band === null) return row.satlab !== null && satlabBounds(row).includes('satlab') ? 'open' : 'not measured';
  return row.in_band ? 'in band' : 'out of band';
}

/** One chart of box plots: the configurations that share the levels in its title, a box per level of the last varied axis. */
export interface BoxChart {
  title: string;
  /** The metric its values are of. */
  metric: string;
  /** The boxes, in the axis's order. */
  groups: { key: string; label: string }[];
  /** Every value satlab measured, by box; censored: a run the time limit stopped, at least this. */
  points: { group: string; value: number; censored: boolean }[];
  /** The published central figure (median or mean) of each box that has one. */
  published: { group: string; value: number }[];
  /** The axis the boxes are levels of. */
  boxAxis: string;
}

const sameLevels = (a: Configuration, b: Configuration, axes: string[]) => axes.every((axis) => (a[axis] ?? '') === (b[axis] ?? ''));

/**
 * configurationMetrics is what satlab measured for a configuration, per metric; a report of the
 * first format (before metrics beyond download time) has its download times at the top.
 */
export function configurationMetrics(entry: ReportConfiguration): Record<string, MetricFigures> {
  if (entry.metrics) return entry.metrics;
  const { values, n, median, q1, q3, std, min, max } = entry as unknown as MetricFigures;
  return { download_time_s: { values, n, median, q1, q3, std, min, max, runs: null, bounds: [], censored: null, at_least: [], at_most: {} } };
}

/**
 * boxCharts lays one metric of the report's configurations out as charts: one per combination
 * of the varied axes but the last, whose levels are the boxes (a chart per channel and transport,
 * a box per tunnel), so that a chart's values share a scale. Each box has the published median
 * (or mean) drawn on it; a run the time limit stopped is a point at its bound, as the report's
 * figures take it.
 */
export function boxCharts(report: StudyReport, metric = 'download_time_s', entries = report.configurations): BoxChart[] {
  const configurations = entries.map((entry) => entry.configuration);
  const varied = variedAxes(report.axes, configurations);
  // Nothing varies (one configuration): its last axis with a level names the box.
  const boxAxis = varied.at(-1) ?? Object.keys(report.axes).filter((axis) => configurations.some((one) => one[axis])).at(-1) ?? '';
  const chartAxes = varied.slice(0, -1);
  const columns = Object.keys(report.axes);
  const charts: BoxChart[] = [];
  for (const combination of combinations(report.axes, chartAxes)) {
    const members = entries.filter((entry) => sameLevels(entry.configuration, combination, chartAxes));
    if (members.length === 0) continue;
    const levels = report.axes[boxAxis].filter((level) => members.some((entry) => entry.configuration[boxAxis] === level));
    const published = report.rows.filter(
      (row) => row.metric === metric && row.statistic !== 'std' && members.some((entry) => sameLevels(entry.configuration, row.configuration, columns)),
    );
    charts.push({
      title: chartAxes.length > 0 ? configurationLabel(combination, chartAxes) : `Each ${boxAxis}`,
      metric,
      groups: levels.map((level) => ({ key: level, label: level })),
      points: members.flatMap((entry) => {
        const figures = configurationMetrics(entry)[metric];
        const group = entry.configuration[boxAxis];
        return [
          ...(figures?.values ?? []).map((value) => ({ group, value, censored: false })),
          ...((figures as { bounds?: number[] } | undefined)?.bounds ?? []).map((value) => ({ group, value, censored: true })),
        ];
      }),
      published: published.flatMap((row) => (row.published === null ? [] : [{ group: row.configuration[boxAxis], value: row.published }])),
      boxAxis,
    });
  }
  return charts;
}

/** Every combination of the axes' levels, in their order (the first axis slowest). */
function combinations(axes: Selection, names: string[]): Configuration[] {
  return names.reduce<Configuration[]>(
    (partial, axis) => partial.flatMap((configuration) => axes[axis].map((level) => ({ ...configuration, [axis]: level }))),
    [{}],
  );
}

/** boundText is a check's bound on each compared value, with its unit if any: "≥ 3", "≤ 7 s", "between 0.9 and 1.1". */
export function boundText({ at_least, at_most }: Pick<ReportCheck, 'at_least' | 'at_most'>, unit = ''): string {
  const withUnit = (value: number | null) => `${value}${unit ? ` ${unit}` : ''}`;
  if (at_least !== null && at_most !== null) return `between ${at_least} and ${withUnit(at_most)}`;
  return at_least !== null ? `≥ ${withUnit(at_least)}` : `≤ ${withUnit(at_most)}`;
}

export type CheckCompare = NonNullable<ReportCheck['compare']>;

/**
 * checkCompare is what a check's bounds apply to: the report's `compare`, or in a report made
 * before it said so, each ratio of medians (the median itself where there is no denominator).
 */
export function checkCompare(check: Pick<ReportCheck, 'compare' | 'comparisons'>): CheckCompare {
  if (check.compare) return check.compare;
  return check.comparisons.every((comparison) => comparison.denominator === null) ? 'value' : 'ratio';
}

const comparedNames: Record<CheckCompare, { each: string; column: string }> = {
  ratio: { each: 'ratio of medians', column: 'Ratio' },
  difference: { each: 'difference of medians', column: 'Difference' },
  value: { each: 'median', column: 'Median' },
};

/** comparedColumn heads the column of what a check's bounds apply to: "Ratio", "Difference", "Median". */
export const comparedColumn = (check: Pick<ReportCheck, 'compare' | 'comparisons'>) => comparedNames[checkCompare(check)].column;

/**
 * checkBoundText says a check's bound on each comparison, in the metric's unit where the bound
 * has one (a difference, a median; a ratio has none): "Each difference of medians must be ≤ 7 s".
 */
export function checkBoundText(check: Pick<ReportCheck, 'compare' | 'comparisons' | 'metric' | 'at_least' | 'at_most'>): string {
  const compare = checkCompare(check);
  return `Each ${comparedNames[compare].each} must be ${boundText(check, compare === 'ratio' ? '' : metricUnit(check.metric))}`;
}

/** mediansText gives a comparison's medians as the check compares them: "23.56 − 17.38" for a difference, "430.14 / 17.87" for a ratio. */
export function mediansText(check: Pick<ReportCheck, 'compare' | 'comparisons'>, comparison: CheckComparison): string {
  if (!comparison.denominator) return formatFigure(comparison.numerator_median);
  const operator = checkCompare(check) === 'difference' ? '−' : '/';
  return `${formatFigure(comparison.numerator_median)} ${operator} ${formatFigure(comparison.denominator_median)}`;
}

/** valueRange is a comparison's least and most (null: no most) where a censored median makes it a range; null where exact. */
const valueRange = (comparison: CheckComparison) => (comparison as { value_range?: (number | null)[] | null }).value_range ?? null;

/**
 * comparedText is the value a comparison's bound applies to: its ratio (3 decimals), its
 * difference with its unit ("6.18 s"), or its median; with a censored median, its range ("≥ 81.726",
 * "1.020–1.310").
 */
export function comparedText(check: Pick<ReportCheck, 'compare' | 'comparisons' | 'metric'>, comparison: CheckComparison): string {
  const difference = checkCompare(check) === 'difference';
  const text = (value: number | null) => (difference && value !== null ? formatWithUnit(check.metric)(value) : formatFigure(value, difference ? 2 : 3));
  const range = valueRange(comparison);
  if (range) return range[1] === null ? `≥ ${text(range[0])}` : `${text(range[0])}–${text(range[1])}`;
  return text(difference ? (comparison.difference ?? null) : comparison.ratio);
}

export type CheckVerdict = 'holds' | 'fails' | 'open' | 'not measured';

/** comparisonVerdict: a comparison holds or fails; one a censored median leaves undecided is open. */
export const comparisonVerdict = (comparison: CheckComparison): CheckVerdict =>
  comparison.holds === null ? (valueRange(comparison) ? 'open' : 'not measured') : comparison.holds ? 'holds' : 'fails';

/** checkVerdict: a check's, from its comparisons (null: a statement without a report, not measured). */
export function checkVerdict(check: Pick<ReportCheck, 'holds' | 'comparisons'> | null): CheckVerdict {
  if (check === null) return 'not measured';
  if (check.holds !== null) return check.holds ? 'holds' : 'fails';
  const verdicts = check.comparisons.map(comparisonVerdict);
  return verdicts.length > 0 && verdicts.every((verdict) => verdict === 'holds' || verdict === 'open') ? 'open' : 'not measured';
}

/**
 * The configurations the backend computes for a study (its one computation of the matrix,
 * backend/satlab/studies/matrix.py), full and quick; absent from the static studies.json, where
 * no run starts.
 */
export function studyConfigurations(study: Study, quick: boolean): StudyConfiguration[] {
  return (quick ? study.quick_configurations : study.configurations) ?? [];
}

/** selects tells whether a selection takes a configuration: its experiment, and each level it names. */
const selects = (selection: Selection, configuration: StudyConfiguration) =>
  (!configuration.experiment || (selection[EXPERIMENT] ?? []).includes(configuration.experiment)) &&
  Object.entries(configuration.levels).every(([column, level]) => column === EXPERIMENT || level === '' || (selection[column] ?? []).includes(level));

/** One experiment's part of a study run: its configurations, each run `iterations` times. */
export interface ExperimentRunCount {
  /** Its name ('' in a study without experiments). */
  experiment: string;
  configurations: number;
  iterations: number;
  runs: number;
}

export interface RunCount {
  configurations: number;
  runs: number;
  /** Per experiment, in the backend's order (an experiment twice if its configurations run different iterations). */
  parts: ExperimentRunCount[];
}

/**
 * runCount is how many configurations and runs a study run of the selected levels makes: those of
 * the backend's list (the quick run's for a quick run) that the selection takes, each run as many
 * times as the backend says (its experiment's iterations), or `iterations` times if one is chosen.
 */
export function runCount(study: Study, selection: Selection, iterations: number | null, quick = false): RunCount {
  const chosen = studyConfigurations(study, quick).filter((configuration) => selects(selection, configuration));
  const parts: ExperimentRunCount[] = [];
  for (const configuration of chosen) {
    const each = iterations ?? configuration.iterations;
    const part = parts.find((one) => one.experiment === configuration.experiment && one.iterations === each);
    if (part) {
      part.configurations += 1;
      part.runs += each;
    } else {
      parts.push({ experiment: configuration.experiment, configurations: 1, iterations: each, runs: each });
    }
  }
  return { configurations: chosen.length, runs: parts.reduce((total, part) => total + part.runs, 0), parts };
}

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** experimentRunText says one experiment's part: "five-flows: 24 configurations × 5 iterations = 120 runs". */
export const experimentRunText = ({ experiment, configurations, iterations, runs }: ExperimentRunCount) =>
  `${experiment ? `${experiment}: ` : ''}${counted(configurations, 'configuration')} × ${counted(iterations, 'iteration')} = ${counted(runs, 'run')}`;

/**
 * runCountText says a study run's size in a line: "3 configurations × 1 iteration = 3 runs, 3 at
 * once", or where its configurations run different numbers of iterations, the total alone (each
 * experiment's part says its own).
 */
export function runCountText({ configurations, runs, parts }: RunCount, parallel: number): string {
  if (configurations === 0) return 'The levels chosen make no configuration: choose at least one level of each axis.';
  const atOnce = `${Math.min(parallel, runs)} at once`;
  const iterations = new Set(parts.map((part) => part.iterations));
  if (iterations.size === 1) return `${experimentRunText({ experiment: '', configurations, iterations: parts[0].iterations, runs })}, ${atOnce}`;
  return `${counted(configurations, 'configuration')}, ${counted(runs, 'run')} in all (each experiment's iterations below), ${atOnce}`;
}

/** quickSelection is every column's levels the quick run takes: those its configurations name. */
export function quickSelection(study: Study): Selection {
  const quick = studyConfigurations(study, true);
  return Object.fromEntries(
    Object.entries(studyColumns(study)).map(([column, levels]) => [
      column,
      levels.filter((level) =>
        quick.some((configuration) => (column === EXPERIMENT ? configuration.experiment === level : configuration.levels[column] === level)),
      ),
    ]),
  );
}

/** reportOrigin says in a line where a report comes from: who generated it when, on what, from which runs. */
export function reportOrigin(report: StudyReport): string {
  const host = report.host;
  const machine = [host.machine, host.kernel ? `Linux ${host.kernel}` : null, host.cpus ? `${host.cpus} CPUs` : null]
    .filter(Boolean)
    .join(', ');
  const runs = report.campaigns.map((campaign) => campaign.campaign_id).join(', ');
  return (
    `Generated ${report.generated_at.replace('T', ' ').replace('Z', ' UTC')} by satlab ${report.satlab}` +
    `${report.git ? ` (git ${report.git})` : ''}${machine ? ` on ${machine}` : ''}, ` +
    `from ${report.campaigns.length === 1 ? 'study run' : `${report.campaigns.length} study runs`} ${runs || '(none)'}.`
  );
}

/**
 * summaryText sums a report up, counting only the rows with a published figure: how many of those
 * satlab measured are in their band, how the checks came out. A study that published no figure
 * to compare one to one says so, rather than "0 of 0".
 */
export function summaryText({ summary }: StudyReport): string {
  const checks = `checks: ${summary.checks_held} hold, ${summary.checks_failed} fail, ${summary.checks_unknown} not measured.`;
  if (summary.rows === 0) return `The study published no figure satlab compares one to one; ${checks}`;
  const figures = `${summary.rows} published figure${summary.rows === 1 ? '' : 's'}`;
  if (summary.measured === 0) return `None of the ${figures} is measured yet; ${checks}`;
  const unmeasured = summary.rows - summary.measured;
  return (
    `${summary.in_band} of the ${summary.measured} published figure${summary.measured === 1 ? '' : 's'} satlab measured ` +
    `${summary.in_band === 1 ? 'is' : 'are'} in band${unmeasured > 0 ? ` (${unmeasured} of the ${figures} not measured)` : ''}; ${checks}`
  );
}

/** experimentBandText sums an experiment's table up in a line, for its folded title: its published figures in band. */
export function experimentBandText(table: ExperimentTable): string {
  const judged = table.lines.flatMap((line) => Object.values(line.cells)).filter((cell) => cell.published !== null && cell.in_band !== null);
  if (judged.length === 0) return `${table.lines.length} configuration${table.lines.length === 1 ? '' : 's'}`;
  const inBand = judged.filter((cell) => cell.in_band).length;
  return `${table.lines.length} configurations; ${inBand} of ${judged.length} published figures measured in band`;
}

/** The units a metric's name may end in (METRICS in backend/satlab/studies/recipe.py), as a reader writes them. */
const units: [string, string][] = [
  ['_mbps_per_s', 'Mbit/s per s'],
  ['_mbps', 'Mbit/s'],
  ['_ms', 'ms'],
  ['_s', 's'],
  ['_bytes', 'bytes'],
];

/** metricUnit is a metric's unit from its name ('' for a ratio, an index or a count). */
export const metricUnit = (metric: string) => units.find(([suffix]) => metric.endsWith(suffix))?.[1] ?? '';

/** metricLabel names a metric from its column name, the unit last: download_time_s → "Download time, s"; jain_index → "Jain index". */
export function metricLabel(metric: string): string {
  const suffix = units.find(([ending]) => metric.endsWith(ending));
  const name = (suffix ? metric.slice(0, -suffix[0].length) : metric).replaceAll('_', ' ');
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}${suffix ? `, ${suffix[1]}` : ''}`;
}

/** formatWithUnit prints a metric's value with its unit: "17.87 s", "0.93". */
export const formatWithUnit = (metric: string) => (value: number) => `${formatFigure(value)}${metricUnit(metric) ? ` ${metricUnit(metric)}` : ''}`;

/** commonSource is where most published figures come from (Table II), named once; rows from elsewhere say theirs. */
export function commonSource(rows: ReportRow[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.source, (counts.get(row.source) ?? 0) + 1);
  return [...counts].reduce<[string, number]>((best, entry) => (entry[1] > best[1] ? entry : best), ['', 0])[0];
}
