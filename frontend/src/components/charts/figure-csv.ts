/**
 * A chart's data as CSV: the rows it draws and the accessors it draws them with, one column per
 * accessor, its unit in its header. Pure, so that tests can check it.
 */

export interface CsvColumn<Row> {
  /** The header, with its unit: "Goodput (Mbit/s)" (columnHeader turns an axis title into one). */
  header: string;
  /** The cell of a row; null (a gap in a line) is an empty cell. */
  value: (row: Row) => string | number | null;
}

/** ChartTable is what a chart draws, as a table: its rows and a column per figure of a row. */
export interface ChartTable<Row> {
  columns: CsvColumn<Row>[];
  rows: readonly Row[];
}

/**
 * columnHeader makes an axis title ("Goodput, Mbit/s": the name, then its unit after the last
 * comma) into a column header with its unit in parentheses, "Goodput (Mbit/s)": no comma left for
 * a careless CSV reader to split on. A title without a comma stays as it is.
 */
export function columnHeader(axisTitle: string): string {
  const comma = axisTitle.lastIndexOf(', ');
  if (comma < 0) return axisTitle;
  return `${axisTitle.slice(0, comma)} (${axisTitle.slice(comma + 2)})`;
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** csvText writes a table as RFC 4180 CSV: a header line, a line per row, CRLF after each. Numbers keep every digit. */
export function csvText<Row>({ columns, rows }: ChartTable<Row>): string {
  const lines = [columns.map((column) => csvCell(column.header))];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))));
  return lines.map((cells) => `${cells.join(',')}\r\n`).join('');
}
