import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStudies } from '../../../../scripts/studies-asset';
import type { StudyDetail, StudyReport } from '../api/types';
import {
  bandVerdict,
  commonSource,
  boundText,
  boxCharts,
  configurationLabel,
  fixedLevels,
  quickSelection,
  reportOrigin,
  runCount,
  satlabFigure,
  tableRows,
  variedAxes,
} from './report';

// The Petrou recipe and the report shipped with it (labs/studies/petrou2022/report.json): the
// expected figures come from that file, so that a new shipped report keeps the tests true.
const labsDir = fileURLToPath(new URL('../../../../../labs', import.meta.url));
const study = readStudies(labsDir).data.find((one) => one.id === 'petrou2022') as StudyDetail;
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

  it('gives a spread without an IQR, never judged', () => {
    const row = report.rows.find((one) => one.statistic === 'std');
    expect(row && bandVerdict(row)).toBe('not judged');
    if (row?.satlab !== null && row) expect(satlabFigure(row)).toBe(row.satlab.toFixed(2));
  });
});

describe('boxCharts', () => {
  const charts = boxCharts(report);

  it('draws every value satlab measured once, in a chart per channel and transport with a box per tunnel', () => {
    const measured = report.configurations.flatMap((entry) => entry.values).sort();
    expect(charts.flatMap((chart) => chart.points.map((point) => point.value)).sort()).toEqual(measured);
    const pairs = new Set(report.configurations.map((entry) => `${entry.configuration.channel} · ${entry.configuration.transport}`));
    expect(charts.map((chart) => chart.title).sort()).toEqual([...pairs].sort());
    expect(charts.every((chart) => chart.boxAxis === 'tunnel')).toBe(true);
  });

  it('draws the published median on each box that has one', () => {
    for (const chart of charts) {
      const [channel, transport] = chart.title.split(' · ');
      for (const mark of chart.published) {
        const row = report.rows.find(
          (one) =>
            one.statistic === 'median' &&
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
  it("counts a quick run's configurations and runs from the recipe", () => {
    const selection = quickSelection(study);
    const expected = Object.keys(study.axes).reduce((product, axis) => product * (study.quick.only[axis] ?? study.axes[axis]).length, 1);
    expect(runCount(selection, study.quick.iterations)).toEqual({ configurations: expected, runs: expected * study.quick.iterations });
    expect(runCount(study.axes, 10).configurations).toBe(3 * 2 * 2 * 2 * 4);
  });

  it("says a check's bound", () => {
    expect(boundText({ at_least: 3, at_most: null })).toBe('≥ 3');
    expect(boundText({ at_least: null, at_most: 1.6 })).toBe('≤ 1.6');
    expect(boundText({ at_least: 0.9, at_most: 1.1 })).toBe('between 0.9 and 1.1');
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
    const ideal = {
      ...report,
      configurations: report.configurations.filter((entry) => entry.configuration.channel === 'ideal' && entry.configuration.tunnel === 'none'),
    };
    const charts = boxCharts(ideal);
    expect(charts).toHaveLength(1);
    expect(charts[0].title).toBe('Each transport');
    expect(charts[0].groups.map((group) => group.key)).toEqual(['tcp-cubic', 'picoquic-bbr']);
  });
});
