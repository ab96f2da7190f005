import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The native tool the page names (make build-native builds it). */
const swfChannel = fileURLToPath(new URL('../../build/codec/tools/swf-channel', import.meta.url));

interface NativeStats {
  time_lost_ratio: number | null;
  lost_ms: number | null;
  packets: number;
  packets_lost: number;
  packet_loss_ratio: number;
  bursts: { unit: string; count: number; min: number; mean: number; max: number; histogram: { counts: number[] } };
}

/** Runs the command the page shows, natively, and reads its JSON. */
async function nativeFigures(page: Page): Promise<NativeStats> {
  expect(existsSync(swfChannel), `${swfChannel} is missing: build the codec (make build-native)`).toBe(true);
  const command = (await page.getByText(/^swf-channel stats /).textContent()) ?? '';
  const [, ...args] = command.split(' ');
  return JSON.parse(execFileSync(swfChannel, args, { encoding: 'utf8' })) as NativeStats;
}

const figure = (panel: Locator, name: string) => panel.getByRole('group', { name }).getByRole('definition');
const percent = (ratio: number) => `${(100 * ratio).toFixed(3)} %`;

/** The page's statistics equal the native tool's, figure by figure. */
async function expectNativeFigures(page: Page) {
  const native = await nativeFigures(page);
  const panel = page.getByRole('region', { name: 'Channel statistics' });
  await expect(figure(panel, 'Stream packets lost')).toHaveText(
    `${native.packets_lost.toLocaleString('en')} of ${native.packets.toLocaleString('en')} (${percent(native.packet_loss_ratio)})`,
  );
  await expect(figure(panel, 'Time lost')).toHaveText(
    native.time_lost_ratio === null
      ? 'not defined: per-packet model'
      : `${percent(native.time_lost_ratio)} (${(native.lost_ms ?? 0).toLocaleString('en')} ms)`,
  );
  const { bursts } = native;
  await expect(figure(panel, 'Loss bursts')).toHaveText(bursts.count.toLocaleString('en'));
  await expect(figure(panel, 'Burst length: min / mean / max')).toHaveText(
    `${bursts.min} / ${Number(bursts.mean.toPrecision(4))} / ${bursts.max} ${bursts.unit}`,
  );
  const rows = panel.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(1 + bursts.histogram.counts.filter((count) => count > 0).length);
  return native;
}

test('the channel statistics of the optical channel are the native tool\'s', async ({ page }) => {
  const q = 10 / 16.7;
  const p = (q * 0.0256) / (1 - 0.0256);
  await page.goto(`./?lab=channel&sources=100&kind=ge_time&p=${p}&q=${q}&stepMs=10&seed=2521958666`);
  const native = await expectNativeFigures(page);
  // The calibrated channel, over a minute: about 2.56 % of the time in bursts of about 16.7 ms.
  expect(native.time_lost_ratio).toBeGreaterThan(0.015);
  expect(native.bursts.unit).toBe('ms');

  // Another stream: the page and the tool follow it.
  const stream = page.getByRole('form', { name: 'Statistics stream' });
  await stream.getByLabel('Duration (s)').fill('600');
  await stream.getByLabel('Packet size (bytes)').fill('1000');
  await expect(page.getByText(/^swf-channel stats .* --duration-s 600 .* --packet-bytes 1000$/)).toBeVisible();
  await expectNativeFigures(page);
  await page.screenshot({ path: 'test-output/channel-stats-optical.png', fullPage: true });
});

test('the channel statistics of an outage and of a per-packet model are the native tool\'s', async ({ page }) => {
  await page.goto('./?lab=channel&sources=100&kind=outage&periodMs=258&durationMs=15.2&jitterMs=3&seed=5');
  const outage = await expectNativeFigures(page);
  expect(outage.bursts.count).toBeGreaterThan(200);

  await page.goto('./?lab=channel&sources=100&kind=bernoulli&loss=0.02&seed=9');
  const bernoulli = await expectNativeFigures(page);
  expect(bernoulli.time_lost_ratio).toBeNull();
  expect(bernoulli.bursts.unit).toBe('packets');
});
