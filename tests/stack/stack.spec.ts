import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The instructor's first minutes, through the container's published port: sign in with the
// token its log printed once, then run geo-ideal with a 2 MB download and watch it finish, see
// whether its threads were real-time as the container allows, the two workers (docker compose
// up --scale worker=2) and run a 4-run campaign over them.
// run.sh checks the host afterwards; it reads the runs' ids from test-output/stack/run-ids.

test('the instructor signs in, runs geo-ideal with 2 MB, sees two workers and runs a campaign over them', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('./?lab=class');
  const signIn = page.getByRole('form', { name: 'Instructor sign-in' });
  await signIn.getByLabel('Instructor token').fill(process.env.STACK_TOKEN ?? '');
  await signIn.getByRole('button', { name: 'Sign in as instructor' }).click();
  await expect(page.getByText('Signed in as the instructor.')).toBeVisible();
  await expect(page.getByRole('status', { name: 'The class code' })).toHaveText(/^[A-Z2-9]{8}$/);
  await page.screenshot({ path: 'test-output/stack/class.png', fullPage: true });

  await page.goto('./?lab=experiments');
  const form = page.getByRole('form', { name: 'New run' });
  await form.getByLabel('Lab').selectOption('geo-ideal');
  await form.getByLabel('Size, bytes').fill('2000000');
  await form.getByRole('button', { name: 'Run' }).click();

  const panel = page.getByRole('region', { name: /^Run [0-9a-f]+ · geo-ideal$/ });
  const state = page.getByRole('group', { name: 'State', exact: true }).getByRole('definition');
  await expect(state).toHaveText('Done', { timeout: 120_000 });
  const runId = (await panel.getByRole('heading').first().textContent())?.match(/^Run ([0-9a-f]+)/)?.[1] ?? '';
  expect(runId).not.toBe('');
  const summary = panel.getByRole('table', { name: 'Summary per flow' });
  // A header cell also holds its "?" help button.
  const column = (await summary.getByRole('columnheader').allTextContents()).findIndex((text) => text.startsWith('Download time, s'));
  expect(column).toBeGreaterThan(0);
  const downloadTime = Number(await summary.getByRole('row', { name: /^flow 0 tcp cubic/ }).locator('th, td').nth(column).textContent());
  // 2 MB over 12 Mbit/s and a 500 ms RTT, slow start included: a few seconds.
  expect(downloadTime).toBeGreaterThan(1.3);
  expect(downloadTime).toBeLessThan(15);
  // The run's evidence says whether satlink's threads got SCHED_FIFO, as the
  // kernel answered satlab doctor in this container (run.sh asked it).
  const fidelity = panel.getByRole('region', { name: 'Did the host keep up?' });
  await expect(fidelity.getByRole('group', { name: 'Forwarding threads', exact: true }).getByRole('definition')).toHaveText(
    process.env.STACK_REALTIME === 'true' ? 'real-time (SCHED_FIFO)' : 'normal priority: the kernel refused SCHED_FIFO',
  );
  await page.screenshot({ path: 'test-output/stack/run.png', fullPage: true });

  // Two workers run the runs, each with what it runs now.
  const workers = page.getByRole('region', { name: 'Workers' });
  await expect(workers.getByRole('row')).toHaveCount(3); // a header and one row per worker
  await expect(workers).not.toContainText('did not load');

  // A campaign through both: cubic against bbr, twice, two at once at least.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Campaigns' }).click();
  const campaignForm = page.getByRole('form', { name: 'New campaign' });
  await campaignForm.getByLabel('Lab').selectOption('geo-ideal');
  await campaignForm.getByLabel('Fixed overrides').fill('flows.0.size_bytes=500000');
  await campaignForm.getByLabel('Path of parameter 1').fill('flows.0.cc');
  await campaignForm.getByLabel('Values of parameter 1').fill('cubic, bbr');
  await campaignForm.getByLabel('Iterations').fill('2');
  await campaignForm.getByLabel('Parallel runs').fill('4');
  await campaignForm.getByRole('button', { name: 'Start campaign' }).click();
  const campaign = page.getByRole('region', { name: /^Campaign c[0-9a-f]+ · geo-ideal$/ });
  const campaignId = (await campaign.getByRole('heading').first().textContent())?.match(/^Campaign (c[0-9a-f]+)/)?.[1] ?? '';
  expect(campaignId).not.toBe('');
  await expect(campaign.getByRole('progressbar', { name: 'Campaign progress' })).toHaveAttribute(
    'aria-valuetext',
    '4/4 runs finished: 4 done, 0 failed, 0 running',
    { timeout: 240_000 },
  );
  await page.screenshot({ path: 'test-output/stack/campaign.png', fullPage: true });
  const detail = (await (await page.request.get(`api/campaigns/${campaignId}`)).json()) as {
    items: { run_id: string; attempts: { worker: string | null }[] }[];
  };
  const campaignRuns = detail.items.map((item) => item.run_id);
  const ranOn = new Set(detail.items.flatMap((item) => item.attempts.map((attempt) => attempt.worker)));
  expect(ranOn.has(null)).toBe(false); // every run on a worker, none in the server's process

  mkdirSync('test-output/stack', { recursive: true });
  writeFileSync('test-output/stack/run-ids', [runId, ...campaignRuns].join('\n'));
  writeFileSync('test-output/stack/workers-used', String(ranOn.size));
  expect(errors).toEqual([]);
});
