import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStudies } from '../../../../scripts/studies-asset';
import { backendStudyConfigurations } from '../../../test/backend-studies';
import type { ReportConfiguration, StudyDetail, StudyReport } from '../api/types';
import {
  bandVerdict,
  checkVerdict,
  commonSource,
  comparisonVerdict,
  failedText,
  ratioText,
  boundText,
  boxCharts,
  checkBoundText,
  comparedColumn,
  comparedText,
  experimentRunText,
  mediansText,
  runCountText,
  configurationLabel,
  configurationMetrics,
  experimentParts,
  experimentTables,
  formatWithUnit,
  metricLabel,
  fixedLevels,
  quickSelection,
  reportOrigin,
  studyColumns,
  runCount,
  satlabFigure,
  summaryText,
  tableRows,
  variedAxes,
} from './report';
import { explanationOf, readmeHeadingId } from './explanations';

// The Petrou recipe and the report shipped with it (labs/studies/petrou2022/report.json): the
// expected figures come from that file, so that a new shipped report keeps the tests true.
const labsDir = fileURLToPath(new URL('../../../../../labs', import.meta.url));
// The configurations are the backend's, as GET api/studies/{id} gives them (issue 17: one computation).
const fromBackend = backendStudyConfigurations();
const withConfigurations = (one: StudyDetail) => ({ ...one, ...fromBackend[one.id] }) as StudyDetail;
const study = withConfigurations(readStudies(labsDir).data.find((one) => one.id === 'petrou2022') as StudyDetail);
const report = study.shipped_report as StudyReport;

describe('tableRows', () => {
  it("is the report's rows when there is a report", () => {
    expect(tableRows(study, report)).toBe(report.rows);
  });

  it('is the published figures alone, with nothing measured, without a report', () => {
    const rows = tableRows(study, null);
    expect(rows.map((row) => [row.configuration, row.statistic, row.published])).toEqual(
      study.published.map((figure) => [figure.configuration, figure.statistic, figure.value]),
    );
    expect(rows.every((row) => row.satlab === null && row.n === 0 && bandVerdict(row) === 'not judged')).toBe(true);
  });
});

describe('axes worth naming', () => {
  it('names the axes that tell the published figures apart, and the levels they share once', () => {
    const configurations = study.published.map((figure) => figure.configuration);
    expect(variedAxes(study.axes, configurations)).toEqual(['channel', 'transport', 'tunnel']);
    expect(fixedLevels(study.axes, configurations)).toBe('wifi none, flows 1');
    expect(configurationLabel(configurations[2], ['channel', 'transport', 'tunnel'])).toBe('ideal · tcp-cubic · S(5,100)');
  });
});

describe('satlabFigure and bandVerdict', () => {
  it("gives satlab's median with its IQR, and the row's verdict", () => {
    const row = report.rows.find((one) => one.statistic === 'median' && one.satlab !== null);
    expect(row).toBeDefined();
    if (!row) return;
    expect(satlabFigure(row)).toBe(`${row.satlab?.toFixed(2)} [${row.q1?.toFixed(2)}–${row.q3?.toFixed(2)}]`);
    expect(bandVerdict(row)).toBe(row.in_band ? 'in band' : 'out of band');
  });

  it('marks the figures a timed-out run could raise, and leaves a band they cross open', () => {
    const row = report.rows.find((one) => one.statistic === 'median' && one.satlab !== null);
    if (!row) throw new Error('the shipped report has a measured median');
    // Two of three runs stopped at 1,458 s (backend/tests/studies/test_report.py makes such a report).
    const stopped = { ...row, satlab: 1458, q1: 931.96, q3: 1458, published: 405.91, ratio: 1458 / 405.91, failed: 2, timed_out: 2 };
    const out = { ...stopped, satlab_at_least: ['satlab' as const, 'q1' as const, 'q3' as const], satlab_at_most: null, in_band: false };
    expect(satlabFigure(out)).toBe('≥1458.00 [≥931.96–≥1458.00]');
    expect([ratioText(out), failedText(out), bandVerdict(out)]).toEqual(['≥3.592', ' (2 failed, 2 timed out)', 'out of band']);
    const open = { ...out, in_band: null };
    expect(bandVerdict(open)).toBe('open');
    // Only its q3 a bound: the median is exact, and so is the verdict.
    const exact = { ...row, satlab_at_least: ['q3' as const] };
    expect(satlabFigure(exact)).toBe(`${row.satlab?.toFixed(2)} [${row.q1?.toFixed(2)}–≥${row.q3?.toFixed(2)}]`);
    expect(bandVerdict(exact)).toBe(bandVerdict(row));
    expect(failedText({ ...row, failed: 1, timed_out: 0 })).toBe(' (1 failed)');
  });

  it('gives a spread without an IQR, never judged', () => {
    const row = report.rows.find((one) => one.statistic === 'std');
    expect(row && bandVerdict(row)).toBe('not judged');
    if (row?.satlab !== null && row) expect(satlabFigure(row)).toBe(row.satlab.toFixed(2));
  });
});

// The one-flow experiment's runs: Table II's single flows without Wi-Fi, as the page draws them under that experiment.
const metric = 'flow_download_time_s';
const oneFlow = report.configurations.filter((entry) => entry.configuration.experiment === 'one-flow');

describe('boxCharts', () => {
  const charts = boxCharts(report, metric, oneFlow);

  it('draws every value satlab measured once, in a chart per channel and transport with a box per tunnel', () => {
    expect(oneFlow.length).toBeGreaterThan(0);
    const measured = oneFlow.flatMap((entry) => configurationMetrics(entry)[metric].values).sort();
    expect(charts.flatMap((chart) => chart.points.map((point) => point.value)).sort()).toEqual(measured);
    const pairs = new Set(oneFlow.map((entry) => `${entry.configuration.channel} · ${entry.configuration.transport}`));
    expect(charts.map((chart) => chart.title).sort()).toEqual([...pairs].sort());
    expect(charts.every((chart) => chart.boxAxis === 'tunnel')).toBe(true);
  });

  it('draws a run the time limit stopped as a censored point at its bound', () => {
    const [first, ...others] = oneFlow;
    const figures = configurationMetrics(first)[metric];
    const stopped = { ...first, metrics: { [metric]: { ...figures, bounds: [1458] } } };
    const points = boxCharts(report, metric, [stopped, ...others]).flatMap((chart) => chart.points);
    expect(points.filter((point) => point.censored)).toEqual([{ group: first.configuration.tunnel, value: 1458, censored: true }]);
    expect(points.filter((point) => !point.censored)).toHaveLength(charts.flatMap((chart) => chart.points).length);
  });

  it('draws the published median on each box that has one', () => {
    for (const chart of charts) {
      const [channel, transport] = chart.title.split(' · ');
      for (const mark of chart.published) {
        const row = report.rows.find(
          (one) =>
            one.statistic === 'median' &&
            one.configuration.experiment === 'one-flow' &&
            one.configuration.channel === channel &&
            one.configuration.transport === transport &&
            one.configuration.tunnel === mark.group,
        );
        expect(mark.value).toBe(row?.published);
      }
      expect(chart.groups.map((group) => group.key)).toEqual(report.axes.tunnel.filter((level) => chart.groups.some((group) => group.key === level)));
    }
  });
});

describe('runs and checks', () => {
  it("counts a quick run's configurations and runs from the backend's list", () => {
    const listed = fromBackend.petrou2022;
    const selection = quickSelection(study);
    expect(runCount(study, selection, 2, true)).toMatchObject({ configurations: listed.quick_configurations.length, runs: 2 * listed.quick_configurations.length });
    const all = { ...studyColumns(study) };
    expect(runCount(study, all, 10).configurations).toBe(listed.configurations.length);
    // Narrowed to one tunnel: the backend's configurations of that tunnel (or of none, where an experiment does not vary it).
    const s5 = (listed.configurations as { levels: Record<string, string> }[]).filter((one) => ['S(5,100)', ''].includes(one.levels.tunnel ?? ''));
    expect(runCount(study, { ...all, tunnel: ['S(5,100)'] }, 1).configurations).toBe(s5.length);
  });

  it("counts a full run as the recipe's: each experiment its own iterations (Petrou: 10 with one flow, 5 with five)", () => {
    const all = { ...studyColumns(study) };
    const count = runCount(study, all, null);
    // The recipe's own count (labs/studies/petrou2022/study.yaml): 87 configurations, 670 runs, not 87 × 10.
    expect(count).toMatchObject({ configurations: 87, runs: 670 });
    const byExperiment = Object.fromEntries(count.parts.map((part) => [part.experiment, part]));
    expect(byExperiment['one-flow']).toEqual({ experiment: 'one-flow', configurations: 24, iterations: 10, runs: 240 });
    expect(byExperiment['five-flows']).toMatchObject({ configurations: 24, iterations: 5, runs: 120 });
    expect(count.parts.map((part) => part.experiment)).toEqual(Object.keys(study.experiments));
    expect(runCountText(count, study.parallel)).toBe("87 configurations, 670 runs in all (each experiment's iterations below), 8 at once");
    expect(experimentRunText(byExperiment['five-flows'])).toBe('five-flows: 24 configurations × 5 iterations = 120 runs');
    // An iteration count chosen on the form applies to every configuration.
    expect(runCountText(runCount(study, all, 10), study.parallel)).toBe('87 configurations × 10 iterations = 870 runs, 8 at once');
    // Narrowed to the one-flow experiment: one count of iterations, said as a product.
    expect(runCountText(runCount(study, { ...all, experiment: ['one-flow'] }, null), study.parallel)).toBe('24 configurations × 10 iterations = 240 runs, 8 at once');
    expect(runCountText(runCount(study, { ...all, experiment: [] }, null), study.parallel)).toBe(
      'The levels chosen make no configuration: choose at least one level of each axis.',
    );
  });

  it("says a check's bound", () => {
    expect(boundText({ at_least: 3, at_most: null })).toBe('≥ 3');
    expect(boundText({ at_least: null, at_most: 1.6 })).toBe('≤ 1.6');
    expect(boundText({ at_least: 0.9, at_most: 1.1 })).toBe('between 0.9 and 1.1');
    expect(boundText({ at_least: null, at_most: 7 }, 's')).toBe('≤ 7 s');
  });

  it('says a bound on a difference as a difference in the metric\'s unit, with each measured difference', () => {
    const comparison = {
      numerator: { channel: 'dvb-train', transport: 'picoquic-bbr', tunnel: 'none' },
      denominator: { channel: 'ideal', transport: 'picoquic-bbr', tunnel: 'none' },
      numerator_median: 23.56,
      denominator_median: 17.38,
      ratio: 23.56 / 17.38,
      difference: 23.56 - 17.38,
      value: 23.56 - 17.38,
      value_range: null,
      holds: true,
    };
    const check = { compare: 'difference' as const, metric: 'flow_download_time_s', at_least: null, at_most: 7, comparisons: [comparison] };
    expect(checkBoundText(check)).toBe('Each difference of medians must be ≤ 7 s');
    expect(comparedColumn(check)).toBe('Difference');
    expect(mediansText(check, comparison)).toBe('23.56 − 17.38');
    expect(comparedText(check, comparison)).toBe('6.18 s');
    // A ratio has no unit; a report made before `compare` compares ratios, or the median itself without a denominator.
    const ratio = { ...check, compare: 'ratio' as const, at_most: 1.6 };
    expect(checkBoundText(ratio)).toBe('Each ratio of medians must be ≤ 1.6');
    expect([comparedColumn(ratio), mediansText(ratio, comparison), comparedText(ratio, comparison)]).toEqual(['Ratio', '23.56 / 17.38', '1.356']);
    const older = { ...report.checks[0], compare: null };
    expect(checkBoundText(older)).toBe(`Each ratio of medians must be ${boundText(older)}`);
    const alone = { ...check, compare: null, at_most: 20, comparisons: [{ ...comparison, denominator: null, ratio: 23.56 }] };
    expect(checkBoundText(alone)).toBe('Each median must be ≤ 20 s');
    expect(comparedText(alone, alone.comparisons[0])).toBe('23.560');
  });

  it('gives a censored comparison as its range, and its verdict open where the range crosses the bound', () => {
    const exact = { numerator: {}, denominator: {}, numerator_median: 20, denominator_median: 17.84, ratio: 20 / 17.84, difference: 20 - 17.84, value: 20 / 17.84, value_range: null, holds: true };
    const atLeast = { ...exact, numerator_median: 1458, ratio: 1458 / 17.84, value: 1458 / 17.84, value_range: [1458 / 17.84, null] };
    const open = { ...exact, value_range: [1.02, null], holds: null };
    const ratio = { compare: 'ratio' as const, metric: 'flow_download_time_s', comparisons: [exact] };
    expect([comparedText(ratio, atLeast), comparedText(ratio, { ...open, value_range: [1.02, 1.31] })]).toEqual(['≥ 81.726', '1.020–1.310']);
    expect(comparedText({ ...ratio, compare: 'difference' as const }, { ...open, value_range: [2.5, null] })).toBe('≥ 2.50 s');
    expect([atLeast, open, { ...exact, holds: false }, { ...exact, holds: null }].map(comparisonVerdict)).toEqual(['holds', 'open', 'fails', 'not measured']);
    expect(checkVerdict({ holds: null, comparisons: [exact, open] })).toBe('open');
    expect(checkVerdict({ holds: null, comparisons: [open, { ...exact, holds: null }] })).toBe('not measured');
    expect(checkVerdict({ holds: true, comparisons: [exact] })).toBe('holds');
    expect(checkVerdict(null)).toBe('not measured');
  });

  it('says where a report comes from', () => {
    const origin = reportOrigin(report);
    expect(origin).toContain(`by satlab ${report.satlab}`);
    expect(origin).toContain(report.generated_at.slice(0, 10));
    expect(origin).toContain(report.campaigns[0].campaign_id);
  });
});

describe('commonSource', () => {
  it('names the source most published figures come from', () => {
    const rows = tableRows(study, null);
    const counts = rows.filter((row) => row.source === commonSource(rows)).length;
    expect(new Set(rows.map((row) => row.source)).size).toBeGreaterThan(1);
    for (const source of new Set(rows.map((row) => row.source))) {
      expect(rows.filter((row) => row.source === source).length).toBeLessThanOrEqual(counts);
    }
    expect(commonSource([])).toBe('');
  });
});

describe('boxCharts of a run that varies one axis', () => {
  it('draws one chart, a box per level of that axis', () => {
    const ideal = oneFlow.filter((entry) => entry.configuration.channel === 'ideal' && entry.configuration.tunnel === 'none');
    const charts = boxCharts(report, metric, ideal);
    expect(charts).toHaveLength(1);
    expect(charts[0].title).toBe('Each transport');
    expect(charts[0].groups.map((group) => group.key)).toEqual(['tcp-cubic', 'picoquic-bbr']);
  });
});

describe('a study of several experiments (Martin & Khademi)', () => {
  const martin = withConfigurations(readStudies(labsDir).data.find((one) => one.id === 'martin2022') as StudyDetail);
  const upload = { experiment: 'upload-ngtcp2', download: 'ngtcp2-bbr2', loss: '', upload: 'ngtcp2-bbr1', uplink: '2', competition: '' };

  it('has its experiments, each with the axes it varies', () => {
    expect(experimentParts(martin).map((part) => part.name)).toEqual(['bulk', 'fairness', 'latecomers', 'upload-ngtcp2', 'upload-picoquic']);
    expect(experimentParts(martin)[3].axes.uplink).toEqual(['20', '2']);
    const claypool = readStudies(labsDir).data.find((one) => one.id === 'claypool2021') as StudyDetail;
    expect(experimentParts(claypool)).toEqual([{ name: '', title: '', axes: claypool.axes, quick: claypool.quick.only }]);
  });

  it('counts each experiment as its own matrix, not every axis crossed', () => {
    const all = { experiment: Object.keys(martin.experiments), ...martin.axes };
    expect(runCount(martin, all, 5)).toMatchObject({ configurations: 15 + 4 + 2 + 18 + 8, runs: 47 * 5 });
    expect(runCount(martin, { ...all, experiment: ['upload-picoquic'] }, 1).configurations).toBe(8);
    const quick = quickSelection(martin);
    expect(quick.experiment).toEqual(['bulk', 'fairness', 'upload-ngtcp2']);
    expect(runCount(martin, quick, 1, true).configurations).toBe(4);
  });

  it('tables the published figures per experiment, a column group per metric', () => {
    const tables = experimentTables(martin, null);
    expect(tables.map((table) => table.name)).toEqual(['upload-ngtcp2', 'upload-picoquic']);
    const [ngtcp2] = tables;
    expect(ngtcp2.metrics).toEqual(['download_goodput_mbps']);
    expect(ngtcp2.axes).toEqual(['download', 'upload', 'uplink']);
    expect(ngtcp2.lines).toHaveLength(18);
    expect(ngtcp2.lines[9].configuration).toEqual({ ...upload, upload: 'ngtcp2-bbr2' });
    expect(ngtcp2.lines[9].cells.download_goodput_mbps.published).toBe(5.31);
    expect(configurationLabel(ngtcp2.lines[9].configuration, ngtcp2.axes)).toBe('ngtcp2-bbr2 · ngtcp2-bbr2 · 2');
  });

  it("adds satlab's figures of the metrics the study did not publish, and draws each metric's boxes", () => {
    const entry = (configuration: Record<string, string>, goodput: number[], acks: number[]): ReportConfiguration => ({
      configuration,
      failed: 0,
      timed_out: 0,
      host_not_kept_up: null,
      flags: [],
      diagnostics: null,
      // The first format's figures at the top: none in this format.
      values: null,
      n: null,
      median: null,
      q1: null,
      q3: null,
      std: null,
      min: null,
      max: null,
      metrics: {
        download_goodput_mbps: { values: goodput, n: goodput.length, median: goodput[0], q1: goodput[0], q3: goodput[0], std: null, min: null, max: null, runs: null, bounds: [], censored: 0, at_least: [], at_most: {} },
        ack_frames_sent: { values: acks, n: acks.length, median: acks[0] ?? null, q1: null, q3: null, std: null, min: null, max: null, runs: null, bounds: [], censored: 0, at_least: [], at_most: {} },
      },
    });
    const bulk = { experiment: 'bulk', download: 'ngtcp2-bbr1', loss: '0', upload: '', uplink: '', competition: '' };
    const measured = {
      ...report,
      axes: { experiment: Object.keys(martin.experiments), ...martin.axes },
      rows: tableRows(martin, null).map((row) =>
        JSON.stringify(row.configuration) === JSON.stringify(upload) ? { ...row, satlab: 6.2, n: 1, ratio: 6.2 / 8.74 } : row,
      ),
      configurations: [entry(bulk, [17.5], [4100]), entry({ ...bulk, download: 'picoquic-bbr1' }, [18.1], [390]), entry(upload, [6.2], [])],
    } as StudyReport;
    const tables = experimentTables(martin, measured);
    const bulkTable = tables.find((table) => table.name === 'bulk');
    expect(bulkTable?.metrics).toEqual(['download_goodput_mbps', 'ack_frames_sent']);
    expect(bulkTable?.lines.map((line) => line.cells.ack_frames_sent.satlab)).toEqual([4100, 390]);
    expect(bulkTable?.lines[0].cells.download_goodput_mbps.published).toBeNull();
    const charts = boxCharts(measured, 'ack_frames_sent', bulkTable?.entries);
    expect(charts.map((chart) => [chart.title, chart.groups.map((group) => group.key)])).toEqual([['Each download', ['ngtcp2-bbr1', 'picoquic-bbr1']]]);
    // One configuration: a box named by its last axis with a level (not by an axis its experiment does not vary).
    const [single] = boxCharts(measured, 'ack_frames_sent', bulkTable?.entries.slice(0, 1));
    expect([single.boxAxis, single.points]).toEqual(['loss', [{ group: '0', value: 4100, censored: false }]]);
    // The upload experiment's line has its published mean and satlab's median side by side.
    const line = tables.find((table) => table.name === 'upload-ngtcp2')?.lines.find((one) => one.cells.download_goodput_mbps.satlab !== null);
    expect([line?.cells.download_goodput_mbps.published, line?.cells.download_goodput_mbps.satlab]).toEqual([8.74, 6.2]);
    expect(Object.keys(line?.cells ?? {})).toEqual(['download_goodput_mbps']);
  });

  it('names a metric with its unit', () => {
    expect(metricLabel('download_goodput_mbps')).toBe('Download goodput, Mbit/s');
    expect(metricLabel('power_mbps_per_s')).toBe('Power, Mbit/s per s');
    expect(metricLabel('jain_index')).toBe('Jain index');
    expect(metricLabel('steady_mean_rtt_ms')).toBe('Steady mean rtt, ms');
    expect(formatWithUnit('download_time_s')(17.866)).toBe('17.87 s');
    expect(formatWithUnit('link_utilisation_ratio')(0.5)).toBe('0.50');
  });
});

describe('summaryText', () => {
  const withSummary = (summary: Partial<StudyReport['summary']>) =>
    ({
      summary: { rows: 0, measured: 0, in_band: 0, out_of_band: 0, checks_held: 2, checks_failed: 1, checks_unknown: 0, ...summary },
    }) as StudyReport;

  it('counts only the rows with a published figure, and never says "0 of 0"', () => {
    // Issue 18: Claypool, which published no figure to compare one to one, read "0 of 0 published figures in band".
    expect(summaryText(withSummary({}))).toBe('The study published no figure satlab compares one to one; checks: 2 hold, 1 fail, 0 not measured.');
    expect(summaryText(withSummary({ rows: 4 }))).toBe('None of the 4 published figures is measured yet; checks: 2 hold, 1 fail, 0 not measured.');
    expect(summaryText(withSummary({ rows: 3, measured: 3, out_of_band: 3 }))).toBe(
      '0 of the 3 published figures satlab measured are in band; checks: 2 hold, 1 fail, 0 not measured.',
    );
    expect(summaryText(withSummary({ rows: 26, measured: 20, in_band: 15 }))).toBe(
      '15 of the 20 published figures satlab measured are in band (6 of the 26 published figures not measured); checks: 2 hold, 1 fail, 0 not measured.',
    );
  });
});

describe('explanations', () => {
  it("reads a row's or check's explanation when the report carries one, and gives the README's headings ids to link to", () => {
    const row = { ...report.rows[0], explanation: { text: 'The tunnel spans the path.', section: '3. CUBIC through S(10,100)', readme: 'README.md#x' } };
    expect(explanationOf(row)).toEqual({ text: 'The tunnel spans the path.', section: '3. CUBIC through S(10,100)' });
    expect(explanationOf(report.rows[0])).toBeNull();
    expect(readmeHeadingId('petrou2022', '3. CUBIC through S(10,100)')).toBe('readme-petrou2022-3-cubic-through-s10100');
  });
});

describe('experimentTables', () => {
  it("lays the shipped report out per experiment: every published figure once, under its own experiment", () => {
    const tables = experimentTables(study, report);
    expect(tables.map((table) => table.name)).toEqual(
      Object.keys(study.experiments ?? {}).filter((name) => report.rows.some((row) => row.configuration.experiment === name) ||
        report.configurations.some((entry) => entry.configuration.experiment === name)),
    );
    for (const table of tables) {
      const shown = table.lines.flatMap((line) => Object.values(line.cells)).filter((cell) => cell.published !== null);
      expect(shown).toHaveLength(report.rows.filter((row) => row.configuration.experiment === table.name && row.published !== null).length);
    }
  });

  it("lays a report whose configurations name no experiment (made before its recipe had experiments) out in one table of every row it holds", () => {
    expect(Object.keys(study.experiments ?? {}).length).toBeGreaterThan(0);
    const withoutExperiment = (levels: Record<string, string>) => Object.fromEntries(Object.entries(levels).filter(([axis]) => axis !== 'experiment'));
    const older = {
      ...report,
      rows: report.rows.map((row) => ({ ...row, configuration: withoutExperiment(row.configuration) })),
      configurations: report.configurations.map((entry) => ({ ...entry, configuration: withoutExperiment(entry.configuration) })),
    };
    const tables = experimentTables(study, older);
    expect(tables.map((table) => table.name)).toEqual(['']);
    const shown = tables[0].lines.flatMap((line) => Object.values(line.cells)).filter((cell) => cell.published !== null);
    expect(shown).toHaveLength(older.rows.filter((row) => row.published !== null).length);
  });
});
