#!/usr/bin/env node
/**
 * first-load-size: how much script the first page a student opens loads, from a build's Vite
 * manifest (build.manifest: true writes dist/.vite/manifest.json). The first page is index.html
 * with no query: the default page of src/config/paths.ts. Counted: the entry chunk and every chunk
 * it imports statically (what the browser fetches before anything runs), then the chunks of the
 * default page's own lazy module and their static imports, each once. Dynamic imports beyond
 * those (the other pages, the codec's worker) are not loaded by the first page and not counted.
 *
 *   node scripts/first-load-size.mjs [dist] [--page src/app/pages/fec-page.tsx] [--max-gzip-kb 125] [--json]
 *
 * The page defaults to the FEC lab's module, the default page's (src/app/pages.ts loads it).
 * Prints the chunks with their raw and gzip bytes (gzip level 9, as a server's static
 * compression would), and the totals; --json prints one JSON object instead. With --max-gzip-kb,
 * exits 1 when the gzip total is over that many kB (1000 bytes): a budget a build must keep.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const json = args.includes('--json');
/** The value after an option, or fallback when the option is absent. */
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pages = [option('--page', 'src/app/pages/fec-page.tsx')];
const maxGzipKb = option('--max-gzip-kb', null);
const optionValues = new Set(['--page', '--max-gzip-kb'].filter((name) => args.includes(name)).map((name) => args.indexOf(name) + 1));
const dist = args.find((arg, index) => !arg.startsWith('--') && !optionValues.has(index)) ?? 'dist';

const manifestPath = join(dist, '.vite', 'manifest.json');
let manifest;
try {
  manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
} catch (error) {
  console.error(`${manifestPath} does not read (${error.message}): build with build.manifest: true (npm run build) first.`);
  process.exit(1);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entryKey) {
  console.error(`${manifestPath} has no entry for index.html.`);
  process.exit(1);
}
for (const page of pages) {
  if (!manifest[page]) {
    console.error(`${manifestPath} has no chunk for ${page}: is it loaded lazily (import()) by the app?`);
    process.exit(1);
  }
}

/** The chunks a key loads before it runs: itself and its static imports, depth first, each once. */
const loaded = new Set();
function load(key) {
  if (loaded.has(key)) return;
  loaded.add(key);
  for (const imported of manifest[key].imports ?? []) load(imported);
}
load(entryKey);
for (const page of pages) load(page);

const chunks = [...loaded]
  .map((key) => manifest[key].file)
  .filter((file) => file.endsWith('.js'))
  .map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
const total = (field) => chunks.reduce((sum, chunk) => sum + chunk[field], 0);
const report = { entry: entryKey, pages, chunks, rawBytes: total('rawBytes'), gzipBytes: total('gzipBytes') };

if (json) {
  console.log(JSON.stringify(report));
} else {
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  for (const chunk of chunks) console.log(`${chunk.file.padEnd(48)} ${kB(chunk.rawBytes).padStart(10)} ${kB(chunk.gzipBytes).padStart(10)} gzip`);
  console.log(`${'first load, script'.padEnd(48)} ${kB(report.rawBytes).padStart(10)} ${kB(report.gzipBytes).padStart(10)} gzip`);
}
if (maxGzipKb !== null && report.gzipBytes > Number(maxGzipKb) * 1000) {
  console.error(`The first page loads ${(report.gzipBytes / 1000).toFixed(1)} kB of script (gzip), over its budget of ${maxGzipKb} kB.`);
  process.exit(1);
}
