import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SHEETS_ASSET, referenceAsset } from '../src/features/sheets/api/assets';
import type { Sheet, SheetList } from '../src/features/sheets/api/types';
import { jsonAsset } from './json-asset';

/**
 * The lab sheets of labs/sheets/*.md and their reference runs (labs/sheets/data/*.json) as files of
 * the static site: sheets.json and sheets/data/<id>.json. Only those: the instructor's answer key
 * (labs/sheets/answers/) and the README never go into the build, where every student could read them.
 */

const oneLine = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

/** readSheet reads one sheet: its id from the file name, its title from its first heading, its goal from the section so named. */
export function readSheet(file: string): Sheet {
  const text = readFileSync(file, 'utf8');
  const title = /^# (.+)$/m.exec(text);
  if (!title) throw new Error(`${file}: a sheet starts with its title, a line "# Title"`);
  const goal = /^## Goal[^\S\n]*\n([\s\S]*?)(?=^#|$(?![\s\S]))/m.exec(text);
  return {
    id: basename(file, '.md').replace(/^\d+-/, ''),
    title: title[1].trim(),
    goal: goal ? oneLine(goal[1]) : '',
    markdown: text.slice(title.index + title[0].length).trim(),
  };
}

const sheetFiles = (sheetsDir: string) =>
  existsSync(sheetsDir) ? readdirSync(sheetsDir).filter((name) => name.endsWith('.md') && name !== 'README.md').sort() : [];

/** readSheets reads every sheet of labsDir/sheets in the order of their file names. */
export function readSheets(labsDir: string): SheetList {
  const sheetsDir = join(labsDir, 'sheets');
  const data = sheetFiles(sheetsDir).map((name) => readSheet(join(sheetsDir, name)));
  return { data, count: data.length };
}

/** The ids of the reference runs shipped in labsDir/sheets/data. */
export function referenceIds(labsDir: string): string[] {
  const dataDir = join(labsDir, 'sheets', 'data');
  return existsSync(dataDir) ? readdirSync(dataDir).filter((name) => name.endsWith('.json')).map((name) => basename(name, '.json')).sort() : [];
}

/** sheetsFiles lists the files of the build the sheets make: sheets.json, and each reference run's file. */
export const sheetsFiles = (labsDir: string): Record<string, () => unknown> => ({
  [SHEETS_ASSET]: () => readSheets(labsDir),
  ...Object.fromEntries(
    referenceIds(labsDir).map((id) => [
      referenceAsset(id),
      () => JSON.parse(readFileSync(join(labsDir, 'sheets', 'data', `${id}.json`), 'utf8')) as unknown,
    ]),
  ),
});

/** sheetsAsset is the Vite plugin that writes the sheets and their reference runs into the build, and serves them in development. */
export const sheetsAsset = (labsDir: string) => jsonAsset('satlab-sheets-asset', () => sheetsFiles(labsDir));
