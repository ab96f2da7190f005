// The satlab backend for the end-to-end tests: `satlab serve` on a scratch database that is
// removed when it stops, serving the built site (dist/) at / and the API at /api.
// Usage: node e2e/backend-server.mjs <port>
// It passes SIGTERM and SIGINT on, so that the backend cancels and tears down its runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = process.argv[2];
const satlab = fileURLToPath(new URL('../../backend/.venv/bin/satlab', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'satlab-e2e-'));

const backend = spawn(satlab, ['--db', join(scratch, 'satlab.db'), 'serve', '--host', '127.0.0.1', '--port', port], {
  env: { ...process.env, SATLAB_FRONTEND_DIR: dist },
  stdio: 'inherit',
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => backend.kill(signal));
backend.on('error', (error) => {
  console.error(`${satlab} did not start: ${error.message} (build the backend: make venv)`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
});
backend.on('exit', (code, signal) => {
  rmSync(scratch, { recursive: true, force: true });
  process.exit(code ?? (signal ? 0 : 1));
});
