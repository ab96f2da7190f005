import { describe, expect, it } from 'vitest';
import type { RunResult } from '../api/types';
import { attachmentName, runExports, runExportUrl } from './run-exports';
import { runResultOf } from '../../../test/api-fixtures';

const base = 'http://127.0.0.1:8000/';
const result = (kinds: ('qlog' | 'keylog' | 'pcapng')[]): RunResult =>
  runResultOf({
  run_id: 'r1',
  status: 'done',
  error: null,
  flows: [],
  iterations: [],
  artifacts: {
    max_bytes: 1e9,
    used_bytes: 10,
    files: kinds.map((kind, index) => ({ name: `iteration0/file${index}`, kind, size_bytes: 5, sha256: '00' })),
    refused: [],
    incomplete: [],
  },
});

describe('runExportUrl', () => {
  it('addresses the API’s export of a run, with what and the format', () => {
    expect(runExportUrl('0e5015', 'samples', 'parquet', base)).toBe('http://127.0.0.1:8000/api/runs/0e5015/export?what=samples&format=parquet');
    expect(runExportUrl('a/b', 'pcap', undefined, 'https://lab.example/satlab/')).toBe('https://lab.example/satlab/api/runs/a%2Fb/export?what=pcap');
  });
});

describe('runExports', () => {
  it('offers summaries, samples, captures, qlogs and everything, as links', () => {
    const exports = runExports('r1', true, result(['qlog', 'pcapng']), base);
    expect(exports.map((item) => item.label)).toEqual([
      'Summary, CSV',
      'Summary, Parquet',
      'Samples, CSV (zip)',
      'Samples, Parquet (zip)',
      'Packet captures, pcapng (zip)',
      'qlogs, for qvis (zip)',
      'Everything, CSV (zip)',
      'Everything, Parquet (zip)',
    ]);
    expect(exports[4].href).toBe('http://127.0.0.1:8000/api/runs/r1/export?what=pcap');
    expect(exports.every((item) => !item.askFirst)).toBe(true);
  });

  it('asks the API first for every export of a run not finished, which it refuses', () => {
    expect(runExports('r1', false, null, base).every((item) => item.askFirst)).toBe(true);
  });

  it('asks first for captures or qlogs the finished run did not keep', () => {
    const asked = runExports('r1', true, result(['keylog']), base).filter((item) => item.askFirst);
    expect(asked.map((item) => item.label)).toEqual(['Packet captures, pcapng (zip)', 'qlogs, for qvis (zip)']);
  });
});

describe('the API’s answers', () => {
  it('reads the suggested file name', () => {
    expect(attachmentName('attachment; filename="satlab-r1-summary.csv"')).toBe('satlab-r1-summary.csv');
    expect(attachmentName(null)).toBeNull();
  });
});
