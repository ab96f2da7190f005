import { defineConfig } from '@playwright/test';

/** The built site (npm run build) is served on this loopback port, under /labs/. */
const port = Number(process.env.E2E_PORT ?? 41730);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-output/playwright',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  workers: 1,
  use: {
    baseURL: `http://127.0.0.1:${port}/labs/`,
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
  webServer: {
    command: `node e2e/static-server.mjs ${port}`,
    url: `http://127.0.0.1:${port}/labs/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
