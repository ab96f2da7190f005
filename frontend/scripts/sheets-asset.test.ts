import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { channelLabSettings } from '../src/features/channel-lab';
import { fecLabSettings } from '../src/features/fec-lab';
import { parseWidgetBlock, widgetBlocksIn } from '../src/features/sheets/logic/widget-blocks';
import { readSheets, referenceIds, sheetsFiles } from './sheets-asset';

const labsDir = fileURLToPath(new URL('../../labs', import.meta.url));
const sheetsDir = join(labsDir, 'sheets');
const labs = { fec: fecLabSettings, channel: channelLabSettings };

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
