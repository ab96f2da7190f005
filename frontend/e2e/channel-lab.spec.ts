import { appendFileSync, mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';

test('shows the DVB train channel and draws its residual-loss curve', async ({ page }) => {
  await page.goto('./?lab=channel&sources=20000&packets=20000');
  const settings = page.getByRole('form', { name: 'Channel lab settings' });
  await settings.getByLabel('Preset').selectOption({ label: 'DVB on a train: 15.5 ms outage every 258 ms' });
  await settings.getByLabel('Packets per row').fill('258');

  // 1 ms apart, 20 000 packets meet 78 outages of 16 packets each.
  await expect(page.getByRole('group', { name: 'Measured loss' }).getByRole('definition')).toHaveText('6.24 %');
  await expect(page.getByRole('img', { name: 'Burst lengths: 78 of length 16.' })).toBeVisible();

  const status = page.getByRole('status').filter({ hasText: /^Done: 10 values of k/ });
  await expect(status).toBeVisible({ timeout: 60_000 });
  const curve = page.getByRole('img', { name: /Residual loss after S\(k,100\)/ });
  await expect(curve.locator('circle')).toHaveCount(10);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(11);

  const packetsPerSecond = Number((await status.textContent())?.match(/([\d,]+) packets\/s/)?.[1].replaceAll(',', ''));
  expect(packetsPerSecond).toBeGreaterThan(0);
  mkdirSync('test-output', { recursive: true });
  appendFileSync(
    'test-output/monte-carlo-speed.jsonl',
    `${JSON.stringify({ bench: 'channel-lab-monte-carlo', channel: 'dvb-train', z: 100, sources_per_k: 20000, packets_per_s: packetsPerSecond })}\n`,
  );
  await page.screenshot({ path: 'test-output/channel-lab-dvb.png', fullPage: true });
});

test('draws the optical channel from its preset', async ({ page }) => {
  await page.goto('./?lab=channel&sources=20000');
  await expect(page.getByRole('form', { name: 'Channel lab settings' }).getByLabel('Model')).toHaveValue('ge_time');
  await expect(page.getByRole('status').filter({ hasText: /^Done: 10 values of k/ })).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: 'test-output/channel-lab-optical.png', fullPage: true });
});
