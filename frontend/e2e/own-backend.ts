import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';

/** A loopback port nobody listens on now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** A backend of a spec's own, as e2e/backend-server.mjs starts it: its site's address, and how to stop it. */
export interface OwnBackend {
  site: string;
  stop: () => Promise<void>;
}

const server = fileURLToPath(new URL('./backend-server.mjs', import.meta.url));

/**
 * startOwnBackend starts `satlab serve` on a free port and a scratch database, with env added to the
 * environment (SATLAB_INSTRUCTOR_TOKEN: a server that wants a sign-in), once it answers.
 */
export async function startOwnBackend(env: Record<string, string> = {}): Promise<OwnBackend> {
  const port = await freePort();
  const site = `http://127.0.0.1:${port}/`;
  const backend: ChildProcess = spawn('node', [server, String(port)], { env: { ...process.env, ...env }, stdio: 'inherit' });
  await expect.poll(async () => (await fetch(`${site}api/auth/me`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
  return {
    site,
    // SIGTERM lets the backend cancel its runs and tear them down; the script removes the database.
    stop: async () => {
      if (backend.exitCode !== null || backend.signalCode !== null) return;
      const exited = once(backend, 'exit');
      backend.kill('SIGTERM');
      await exited;
    },
  };
}
