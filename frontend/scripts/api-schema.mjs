#!/usr/bin/env node
/**
 * api-schema: the browser's types of the satlab API, generated from the backend's own OpenAPI
 * document (`satlab openapi`) by openapi-typescript into src/shared/api/schema.d.ts, never typed
 * twice by hand (full-stack-fastapi-template's generate-client, for types).
 *
 *   node scripts/api-schema.mjs            writes src/shared/api/schema.d.ts, and the S(k,z) ranges
 *                                          to src/lib/code-limits/tunnel-limits.json
 *   node scripts/api-schema.mjs --check    exits 1, saying so, when a committed file is not what
 *                                          the backend's document generates now
 *
 * The backend is backend/.venv/bin/satlab (make venv), or the command in SATLAB_OPENAPI_COMMAND.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const schemaPath = fileURLToPath(new URL('../src/shared/api/schema.d.ts', import.meta.url));
const satlab = fileURLToPath(new URL('../../backend/.venv/bin/satlab', import.meta.url));
const check = process.argv.includes('--check');

const header = `/**
 * The satlab API's types, generated from the backend's OpenAPI document (\`satlab openapi\`) by
 * openapi-typescript: \`npm run generate-api\` writes this file, \`npm run check-api\` (in make
 * test-frontend) fails when it is not what the backend generates. Do not edit it by hand.
 */

`;

/** The backend's OpenAPI document, as `satlab openapi` prints it. */
function openApiDocument() {
  const [command, ...args] = process.env.SATLAB_OPENAPI_COMMAND?.split(' ') ?? [satlab, 'openapi'];
  try {
    return JSON.parse(execFileSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }));
  } catch (error) {
    console.error(`\`${[command, ...args].join(' ')}\` gave no OpenAPI document (${error.message.trim()}): build the backend first (make venv).`);
    process.exit(1);
  }
}

// A field with a default is optional as the document says: a request body may leave it out, and a
// response lists it as required (the backend's served schemas make every sent field required).
const document = openApiDocument();
const generated = header + astToString(await openapiTS(document, { defaultNonNullable: false }));

/**
 * The S(k,z) ranges of the scenario's Tunnel (the one source of GET api/limits/tunnel), for the
 * browser labs, which run without the backend: src/lib/code-limits reads this copy.
 */
function tunnelLimits() {
  const fields = document.components.schemas.Tunnel.properties;
  const range = (name) => ({ min: fields[name].minimum, max: fields[name].maximum });
  return `${JSON.stringify({ k: range('k'), z: range('z') }, null, 2)}\n`;
}

const outputs = [
  [schemaPath, generated],
  [fileURLToPath(new URL('../src/lib/code-limits/tunnel-limits.json', import.meta.url)), tunnelLimits()],
];

if (!check) {
  for (const [path, text] of outputs) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
} else {
  for (const [path, text] of outputs) {
    let committed = '';
    try {
      committed = readFileSync(path, 'utf8');
    } catch {
      // A missing file differs like any other.
    }
    if (committed !== text) {
      const committedLines = committed.split('\n');
      const generatedLines = text.split('\n');
      const first = generatedLines.findIndex((line, index) => line !== committedLines[index]);
      console.error(
        `${path} is not what the backend's OpenAPI document generates now (first difference at line ${first + 1}: ` +
          `${JSON.stringify(generatedLines[first] ?? '(end of file)')} generated, ${JSON.stringify(committedLines[first] ?? '(end of file)')} committed): ` +
          'run npm run generate-api and commit it, with the frontend changes the new types need.',
      );
      process.exit(1);
    }
  }
  console.log('src/shared/api/schema.d.ts and src/lib/code-limits/tunnel-limits.json are what the backend generates');
}
