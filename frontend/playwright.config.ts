import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/** The built site (npm run build) is served on this loopback port, under /labs/, by a plain static server. */
const port = Number(process.env.E2E_PORT ?? 41730);

/** A loopback port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// The real backend (`satlab serve`, e2e/backend-server.mjs) on a free port. The runner picks it
// once; the workers it starts inherit the variable and read the same port.
process.env.E2E_BACKEND_PORT ??= String(await freePort());
const backendPort = Number(process.env.E2E_BACKEND_PORT);

const satlab = fileURLToPath(new URL('../backend/.venv/bin/satlab', import.meta.url));
/** Why the backend's spec cannot run here, if it cannot: then the backend is not started, and the spec skips saying why. */
process.env.E2E_BACKEND_SKIP ??=
  process.getuid?.() !== 0
    ? 'Runs need root (the backend builds network namespaces and TUN devices): run npm run e2e as root.'
    : !existsSync(satlab)
      ? `${satlab} does not exist: build the backend first (make venv).`
      : '';
// The list reporter does not print skip reasons: the runner (not its workers) says it once.
if (process.env.E2E_BACKEND_SKIP && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`The backend's end-to-end tests skip: ${process.env.E2E_BACKEND_SKIP}`);
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-output/playwright',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  workers: 1,
  use: {
    browserName: 'chromium',
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      // Debian's chromium (apt-get install chromium): Playwright's own browser downloads are unavailable.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // The site as students get it: static files under a sub-path, no backend.
    { name: 'static', testIgnore: /backend\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${port}/labs/` } },
    // The site as `make run` serves it: the backend at /, the API at /api.
    { name: 'backend', testMatch: /backend\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${backendPort}/` } },
    // The browser labs as the backend serves them, under its Content-Security-Policy: a script, worker or
    // WebAssembly module the policy blocks is a console error, which fails the spec (fixtures.ts).
    ...(!process.env.E2E_BACKEND_SKIP
      ? [{ name: 'served', testMatch: /(fec-lab|channel-lab)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${backendPort}/` } }]
      : []),
  ],
  webServer: [
    {
      command: `node e2e/static-server.mjs ${port}`,
      url: `http://127.0.0.1:${port}/labs/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    ...(!process.env.E2E_BACKEND_SKIP
      ? [
          {
            command: `node e2e/backend-server.mjs ${backendPort}`,
            url: `http://127.0.0.1:${backendPort}/api/capabilities`,
            reuseExistingServer: false,
            timeout: 60_000,
            // SIGTERM lets the backend cancel its runs and tear down their namespaces.
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 20_000 },
          },
        ]
      : []),
  ],
});
