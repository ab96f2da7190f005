import { describe, expect, it } from 'vitest';
import { columnHeader, csvText } from './figure-csv';

describe('columnHeader', () => {
  it('puts the unit after the last comma of an axis title in parentheses', () => {
    expect(columnHeader('Goodput, Mbit/s')).toBe('Goodput (Mbit/s)');
    expect(columnHeader('Time since the flows started, s')).toBe('Time since the flows started (s)');
    expect(columnHeader('Start-up, steady, ms')).toBe('Start-up, steady (ms)');
  });

  it('leaves a title without a unit as it is', () => {
    expect(columnHeader('Jain index')).toBe('Jain index');
  });
});

describe('csvText', () => {
  const table = {
    columns: [
      { header: 'Series', value: (row: { name: string; t: number; v: number | null }) => row.name },
      { header: 'Time (s)', value: (row: { name: string; t: number; v: number | null }) => row.t },
      { header: 'Goodput (Mbit/s)', value: (row: { name: string; t: number; v: number | null }) => row.v },
    ],
    rows: [
      { name: 'flow 0 (tcp cubic)', t: 0.1, v: 11.234567891234 },
      { name: 'say "hi", twice', t: 0.2, v: null },
    ],
  };

  it('writes a header and a line per row, CRLF after each, every digit kept, null empty', () => {
    expect(csvText(table)).toBe(
      'Series,Time (s),Goodput (Mbit/s)\r\nflow 0 (tcp cubic),0.1,11.234567891234\r\n"say ""hi"", twice",0.2,\r\n',
    );
  });

  it('quotes headers that hold a comma, and writes no number that is not finite', () => {
    const odd = { columns: [{ header: 'a, b', value: (row: number) => row }], rows: [Number.NaN, Infinity, 3] };
    expect(csvText(odd)).toBe('"a, b"\r\n\r\n\r\n3\r\n');
  });
});
