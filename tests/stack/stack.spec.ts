import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The instructor's first minutes, through the container's published port: sign in with the
// token its log printed once, then run geo-ideal with a 2 MB download and watch it finish.
// run.sh checks the host afterwards; it reads the run's id from test-output/stack/run-id.

test('the instructor signs in, runs geo-ideal with 2 MB and watches it finish', async ({ page }) => {
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
  await page.screenshot({ path: 'test-output/stack/run.png', fullPage: true });

  mkdirSync('test-output/stack', { recursive: true });
  writeFileSync('test-output/stack/run-id', runId);
  expect(errors).toEqual([]);
});
