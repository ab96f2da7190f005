import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, test } from './fixtures';
import { freePort } from './own-backend';

// A backend of its own (not the suite's), stopped and started again under the page, as an
// instructor restarting `satlab serve` would: real processes, a real outage.
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

const port = await freePort();
const base = `http://127.0.0.1:${port}/`;
let backend: ChildProcess | null = null;

async function startBackend() {
  backend = spawn('node', ['e2e/backend-server.mjs', String(port)], { stdio: 'ignore' });
  await expect.poll(async () => (await fetch(`${base}api/capabilities`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
}

async function stopBackend() {
  if (!backend || backend.exitCode !== null) return;
  const exited = once(backend, 'exit');
  backend.kill('SIGTERM');
  await exited;
}

test.afterEach(stopBackend);
// Everything this backend serves fails while it is down: the page says so, and that is the test.
test.use({ expectedFailures: [new RegExp(`^http://127\\.0\\.0\\.1:${port}/`)] });

test('says the backend is not answering, retries, and reconnects with fresh lists once it is back', async ({ page }) => {
  test.setTimeout(90_000);
  await startBackend();
  await page.goto(`${base}?lab=experiments`);
  const runs = page.getByRole('region', { name: 'Runs' });
  await expect(runs.getByText('No runs yet: start one with the form.')).toBeVisible();

  await stopBackend();
  const lost = page.getByRole('alert').filter({ hasText: `The backend at ${base}api/ is not answering.` });
  await expect(lost).toBeVisible();
  // A request while it is down is not "refused", and shows no browser error.
  await runs.getByRole('button', { name: 'Refresh' }).click();
  const form = page.getByRole('form', { name: 'New run' });
  await form.getByLabel('Size, bytes').fill('300000');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect(form.getByRole('alert')).toHaveText(`The run did not start: The backend at ${base}api/ is not answering.`);
  await expect(page.getByText(/refused|Failed to fetch/)).toHaveCount(0);
  await expect(lost.getByRole('button', { name: 'Retry now' })).toBeVisible();

  await startBackend();
  // The console's own next try may find it first; otherwise Retry now asks at once.
  await expect(async () => {
    if ((await lost.count()) > 0) await lost.getByRole('button', { name: 'Retry now' }).click({ timeout: 1000 });
    await expect(lost).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  // The stale failure goes, the list reloads, and the events stream is open again: a run started
  // through the API shows up in the list without a reload.
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(runs.getByText('No runs yet: start one with the form.')).toBeVisible();
  const created = await page.request.post(`${base}api/runs`, { data: { lab: 'geo-ideal', set: ['flows.0.size_bytes=1000'] } });
  const { run_id } = (await created.json()) as { run_id: string };
  await expect(runs.getByRole('link', { name: `Open run ${run_id}` })).toBeVisible();
});
