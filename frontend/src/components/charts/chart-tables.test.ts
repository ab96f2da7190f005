import { describe, expect, it } from 'vitest';
import { boxPlotTable, lineChartTable } from './chart-tables';
import { csvText } from './figure-csv';

describe('lineChartTable', () => {
  const series = [
    { label: 'flow 0 (tcp cubic)', data: [{ t_s: 0, value: 1 }, { t_s: 0.1, value: null }] },
    { label: 'flow 1 (tcp bbr)', data: [{ t_s: 0, value: 2.5 }] },
  ];

  it('has a row per point, through the chart’s own accessors, and the axes’ units in its headers', () => {
    const table = lineChartTable(series, (point) => point.t_s, (point) => point.value, 'Time since the flows started, s', 'Goodput, Mbit/s');
    expect(csvText(table).split('\r\n')).toEqual([
      'Series,Time since the flows started (s),Goodput (Mbit/s)',
      'flow 0 (tcp cubic),0,1',
      'flow 0 (tcp cubic),0.1,',
      'flow 1 (tcp bbr),0,2.5',
      '',
    ]);
  });
});

describe('boxPlotTable', () => {
  it('has a row per point and per reference, by the groups’ labels, with the value’s unit', () => {
    const table = boxPlotTable({
      data: [
        { group: '0', runId: 'r1', value: 17.9 },
        { group: '1', runId: 'r2', value: 19.2 },
      ],
      group: (point) => point.group,
      value: (point) => point.value,
      describe: (point) => `run ${point.runId}`,
      labelOf: (key) => ['cubic', 'bbr'][Number(key)],
      references: [{ group: '0', value: 17.84 }],
      referenceLabel: 'published median',
      xLabel: 'flows.0.cc',
      yLabel: 'Download time, s',
    });
    expect(csvText(table).split('\r\n')).toEqual([
      'flows.0.cc,Mark,Download time (s),About',
      'cubic,point,17.9,run r1',
      'bbr,point,19.2,run r2',
      'cubic,published median,17.84,',
      '',
    ]);
  });
});
