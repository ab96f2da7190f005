import { type ChartTable, columnHeader } from './figure-csv';

/**
 * The shared charts' data as tables, for their CSV: what they draw, through the accessors they
 * draw it with, each column named by its axis title with the unit. Pure.
 */

interface Series<Datum> {
  label: string;
  data: Datum[];
}

/** A point of one line: its series' legend label and its datum. */
export interface LinePoint<Datum> {
  series: string;
  datum: Datum;
}

/** lineChartTable is a line chart's points, a row each ("long" form: pandas pivots it): series, x, y. */
export function lineChartTable<Datum>(
  series: Series<Datum>[],
  x: (datum: Datum) => number,
  y: (datum: Datum) => number | null,
  xLabel: string,
  yLabel: string,
): ChartTable<LinePoint<Datum>> {
  return {
    columns: [
      { header: 'Series', value: (row) => row.series },
      { header: columnHeader(xLabel), value: (row) => x(row.datum) },
      { header: columnHeader(yLabel), value: (row) => y(row.datum) },
    ],
    rows: series.flatMap((one) => one.data.map((datum) => ({ series: one.label, datum }))),
  };
}

/** A value a box plot draws: a point of a group, or a reference drawn across its box. */
export interface BoxValue {
  group: string;
  /** "point", or what the reference is ("published median"). */
  mark: string;
  value: number;
  /** The point's own description (which run); empty for a reference. */
  about: string;
}

export interface BoxPlotData<Datum> {
  data: Datum[];
  group: (datum: Datum) => string;
  value: (datum: Datum) => number;
  /** What a point is (which run). */
  describe: (datum: Datum) => string;
  /** A group's label under its box. */
  labelOf: (group: string) => string;
  references: { group: string; value: number }[];
  referenceLabel: string;
  xLabel: string;
  yLabel: string;
}

/** boxPlotTable is a box plot's values, a row each: group, mark, value, and what each point is. */
export function boxPlotTable<Datum>(plot: BoxPlotData<Datum>): ChartTable<BoxValue> {
  const { data, group, value, describe, labelOf, references, referenceLabel } = plot;
  return {
    columns: [
      { header: columnHeader(plot.xLabel), value: (row) => row.group },
      { header: 'Mark', value: (row) => row.mark },
      { header: columnHeader(plot.yLabel), value: (row) => row.value },
      { header: 'About', value: (row) => row.about },
    ],
    rows: [
      ...data.map((datum) => ({ group: labelOf(group(datum)), mark: 'point', value: value(datum), about: describe(datum) })),
      ...references.map((reference) => ({ group: labelOf(reference.group), mark: referenceLabel, value: reference.value, about: '' })),
    ],
  };
}
