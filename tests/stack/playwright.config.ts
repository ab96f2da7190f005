import { defineConfig } from '@playwright/test';

/**
 * The stack test's browser (run.sh runs it from frontend/, whose node_modules NODE_PATH names):
 * Debian's Chromium against the container's published port, STACK_URL.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /stack\.spec\.ts$/,
  outputDir: '../../frontend/test-output/stack/playwright',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  workers: 1,
  use: {
    baseURL: process.env.STACK_URL,
    browserName: 'chromium',
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
    },
  },
});
