import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { channelLabSettings } from '../src/features/channel-lab';
import { fecLabSettings } from '../src/features/fec-lab';
import { parseWidgetBlock, widgetBlocksIn } from '../src/features/sheets/logic/widget-blocks';
import type { ReferenceRun } from '../src/features/sheets/api/types';
import { readSheets, referenceIds, sheetsFiles } from './sheets-asset';

const labsDir = fileURLToPath(new URL('../../labs', import.meta.url));
const sheetsDir = join(labsDir, 'sheets');
const labs = { fec: fecLabSettings, channel: channelLabSettings };
/** A reference run as shipped in labs/sheets/data. */
const readReference = (id: string) => JSON.parse(readFileSync(join(sheetsDir, 'data', `${id}.json`), 'utf8')) as ReferenceRun;

describe('readSheets', () => {
  it('reads every sheet of labs/sheets in order, with its title and goal, never the README', () => {
    const sheets = readSheets(labsDir).data;
    expect(sheets.map((sheet) => sheet.id)).toEqual([
      'sliding-window',
      'channels',
      'loss-is-not-congestion',
      'start-up',
      'fairness',
      'why-operators-split-tcp',
    ]);
    for (const sheet of sheets) {
      expect(sheet.title).not.toBe('');
      expect(sheet.goal.length).toBeGreaterThan(80);
      expect(sheet.goal).not.toMatch(/\n| {2}/);
      expect(sheet.markdown).not.toMatch(/^# /m);
      expect(sheet.markdown).toMatch(/^## Questions$/m);
    }
  });

  it('finds each sheet\'s widgets valid for the labs they preset, each run with its reference shipped', () => {
    const shipped = referenceIds(labsDir);
    const named = new Set<string>();
    for (const sheet of readSheets(labsDir).data) {
      const blocks = widgetBlocksIn(sheet.markdown).map(({ language, text }) => parseWidgetBlock(language, text, labs));
      expect(blocks.length, sheet.id).toBeGreaterThan(0);
      for (const block of blocks) {
        expect(block.kind === 'invalid' ? block.problem : 'valid', sheet.id).toBe('valid');
        if (block.kind === 'run') {
          expect(block.run.reference, `a run of ${sheet.id} without a reference`).not.toBeNull();
          expect(shipped).toContain(block.run.reference);
          named.add(block.run.reference ?? '');
        }
      }
    }
    // No reference file that no sheet names: each was made from a sheet's block.
    expect(shipped.filter((id) => !named.has(id))).toEqual([]);
  });

  it('ships reference runs that are small, made from the block that names them', () => {
    for (const id of referenceIds(labsDir)) {
      const file = join(sheetsDir, 'data', `${id}.json`);
      expect(statSync(file).size, file).toBeLessThan(100_000);
      const reference = JSON.parse(readFileSync(file, 'utf8'));
      expect(reference.reference).toBe(id);
      expect(reference.result.status).toBe('done');
      const sheet = readFileSync(join(sheetsDir, reference.sheet), 'utf8');
      const block = widgetBlocksIn(sheet)
        .map(({ language, text }) => parseWidgetBlock(language, text, labs))
        .find((candidate) => candidate.kind === 'run' && candidate.run.reference === id);
      expect(block).toEqual({ kind: 'run', run: { lab: reference.lab, set: reference.set, reference: id } });
    }
  });

  it("ships reference runs on the clock of each flow's data connection: its counts never step back, its samples end with its download", () => {
    for (const id of referenceIds(labsDir)) {
      const reference = readReference(id);
      for (const flow of reference.result.flows) {
        const samples = reference.samples.flows.filter((sample) => sample.flow === flow.flow);
        // iperf3's control connection, sampled first on the former clock, counted its own bytes
        // before the data connection's started again from 0 (issue 18, defect 4).
        for (const hop of new Set(samples.map((sample) => sample.hop))) {
          const acked = samples.filter((sample) => sample.hop === hop).map((sample) => sample.bytes_acked ?? 0);
          expect(acked, `${id}, flow ${flow.flow}, ${hop}`).toEqual([...acked].sort((a, b) => a - b));
        }
        // And the charts went on past the download by the control connection's time: 12.3 s for a 10.60 s download.
        const times = samples.map((sample) => sample.t_s);
        expect(Math.max(...times), `${id}, flow ${flow.flow}`).toBeLessThanOrEqual(Math.min(...times) + (flow.download_time_s ?? 0));
      }
    }
  });

  it("lists every reference run in the sheets' README as shipped: its run, its figures per flow, its commit", () => {
    const readme = readFileSync(join(sheetsDir, 'README.md'), 'utf8');
    for (const id of referenceIds(labsDir)) {
      const reference = readReference(id);
      const figures = reference.result.flows.map((flow) => `${flow.download_time_s?.toFixed(2)} s, ${flow.goodput_mbps?.toFixed(2)} Mbit/s`).join(' / ');
      const overrides = reference.set.join(' ');
      const commit = String(reference.provenance.git).slice(0, 12);
      expect(readme).toContain(
        `| \`${id}\` | ${reference.sheet.slice(0, 2)} | \`${reference.lab}\` | \`${overrides}\` | ${reference.run_id.slice(0, 6)} | ${figures} | ${commit} |`,
      );
    }
  });
});

describe('sheetsFiles', () => {
  it('puts the sheets and their reference runs into the build, and nothing of the answer key', () => {
    const files = sheetsFiles(labsDir);
    expect(Object.keys(files).sort()).toEqual(['sheets.json', ...referenceIds(labsDir).map((id) => `sheets/data/${id}.json`)].sort());
    const built = Object.values(files)
      .map((read) => JSON.stringify(read()))
      .join('\n');
    const answers = readdirSync(join(sheetsDir, 'answers'));
    // Every sheet has its answer key; none of its lines reaches the build.
    expect(answers.sort()).toEqual(readdirSync(sheetsDir).filter((name) => /^\d+-.*\.md$/.test(name)).sort());
    for (const name of answers) {
      const lines = readFileSync(join(sheetsDir, 'answers', name), 'utf8')
        .split('\n')
        .filter((line) => line.trim().length > 40);
      expect(lines.length, name).toBeGreaterThan(5);
      for (const line of lines) expect(built.includes(JSON.stringify(line.trim()).slice(1, -1)), `${name}: ${line}`).toBe(false);
    }
  });
});
