import type { Configuration, ReportCheck, ReportRow, Selection, Study, StudyReport } from '../api/types';

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
    n: 0,
    failed: 0,
    ratio: null,
    band: null,
    band_reason: null,
    in_band: null,
  }));
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

/** configurationLabel names a configuration by its levels of the given axes: "optical · tcp-cubic · S(5,100)". */
export const configurationLabel = (configuration: Configuration, axes: string[]) =>
  axes.map((axis) => configuration[axis]).join(' · ');

/** satlabFigure is satlab's side of a row: "17.87 [17.87–17.88]" for a median with its IQR. */
export function satlabFigure(row: ReportRow): string {
  if (row.satlab === null) return '–';
  const iqr = row.statistic === 'median' && row.q1 !== null && row.q3 !== null ? ` [${formatFigure(row.q1)}–${formatFigure(row.q3)}]` : '';
  return `${formatFigure(row.satlab)}${iqr}`;
}

export type BandVerdict = 'in band' | 'out of band' | 'not measured' | 'not judged';

/** bandVerdict: medians are held to a band once measured; other statistics are reported, not judged. */
export function bandVerdict(row: ReportRow): BandVerdict {
  if (row.band === null) return 'not judged';
  if (row.in_band === null) return 'not measured';
  return row.in_band ? 'in band' : 'out of band';
}

/** One chart of box plots: the configurations that share the levels in its title, a box per level of the last varied axis. */
export interface BoxChart {
  title: string;
  /** The boxes, in the axis's order. */
  groups: { key: string; label: string }[];
  /** Every value satlab measured, by box. */
  points: { group: string; value: number }[];
  /** The published median of each box that has one. */
  published: { group: string; value: number }[];
  /** The axis the boxes are levels of. */
  boxAxis: string;
}

const sameLevels = (a: Configuration, b: Configuration, axes: string[]) => axes.every((axis) => a[axis] === b[axis]);

/**
 * boxCharts lays the report's configurations out as charts: one per combination of the varied
 * axes but the last, whose levels are the boxes (a chart per channel and transport, a box per
 * tunnel), so that a chart's values share a scale. Each box has the published median drawn on it.
 */
export function boxCharts(report: StudyReport): BoxChart[] {
  const configurations = report.configurations.map((entry) => entry.configuration);
  const varied = variedAxes(report.axes, configurations);
  const boxAxis = varied.at(-1) ?? Object.keys(report.axes).at(-1) ?? '';
  const chartAxes = varied.slice(0, -1);
  const charts: BoxChart[] = [];
  for (const combination of combinations(report.axes, chartAxes)) {
    const members = report.configurations.filter((entry) => sameLevels(entry.configuration, combination, chartAxes));
    if (members.length === 0) continue;
    const levels = report.axes[boxAxis].filter((level) => members.some((entry) => entry.configuration[boxAxis] === level));
    const published = report.rows.filter(
      (row) => row.statistic === 'median' && members.some((entry) => sameLevels(entry.configuration, row.configuration, Object.keys(report.axes))),
    );
    charts.push({
      title: chartAxes.length > 0 ? configurationLabel(combination, chartAxes) : `Each ${boxAxis}`,
      groups: levels.map((level) => ({ key: level, label: level })),
      points: members.flatMap((entry) => entry.values.map((value) => ({ group: entry.configuration[boxAxis], value }))),
      published: published.map((row) => ({ group: row.configuration[boxAxis], value: row.published })),
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

/** boundText is a check's bound on each ratio: "≥ 3", "≤ 1.6", "between 0.9 and 1.1". */
export function boundText({ at_least, at_most }: Pick<ReportCheck, 'at_least' | 'at_most'>): string {
  if (at_least !== null && at_most !== null) return `between ${at_least} and ${at_most}`;
  return at_least !== null ? `≥ ${at_least}` : `≤ ${at_most}`;
}

export type CheckVerdict = 'holds' | 'fails' | 'not measured';

export const checkVerdict = (holds: boolean | null): CheckVerdict => (holds === null ? 'not measured' : holds ? 'holds' : 'fails');

/** The runs per configuration and how many configurations a selection of levels makes. */
export function runCount(selection: Selection, iterations: number): { configurations: number; runs: number } {
  const configurations = Object.values(selection).reduce((product, levels) => product * levels.length, 1);
  return { configurations, runs: configurations * iterations };
}

/** quickSelection is every axis's levels a quick run takes: the recipe's choice, else all. */
export const quickSelection = (study: Study): Selection =>
  Object.fromEntries(Object.entries(study.axes).map(([axis, levels]) => [axis, study.quick.only[axis] ?? levels]));

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

/** summaryText sums a report up: how many published figures are in their band, how the checks came out. */
export function summaryText({ summary }: StudyReport): string {
  return (
    `${summary.in_band} of ${summary.rows} published figures in band (${summary.measured} measured); ` +
    `checks: ${summary.checks_held} hold, ${summary.checks_failed} fail, ${summary.checks_unknown} not measured.`
  );
}

/** metricLabel names a metric from its column name, the unit last: download_time_s → "Download time, s". */
export function metricLabel(metric: string): string {
  const words = metric.split('_');
  const unit = words.length > 1 ? words.pop() : undefined;
  const name = words.join(' ');
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}${unit ? `, ${unit}` : ''}`;
}

/** commonSource is where most published figures come from (Table II), named once; rows from elsewhere say theirs. */
export function commonSource(rows: ReportRow[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.source, (counts.get(row.source) ?? 0) + 1);
  return [...counts].reduce<[string, number]>((best, entry) => (entry[1] > best[1] ? entry : best), ['', 0])[0];
}
