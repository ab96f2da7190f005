import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The screens the labs must work on, as CSS pixels: a 1280×720 projector at 150 % zoom is a
 * 853×480 viewport drawn at 1.5 device pixels per CSS pixel; 1920×1080 at 200 % is 960×540.
 */
const screens = [
  { name: '800 px', viewport: { width: 800, height: 900 }, deviceScaleFactor: 1 },
  { name: '1280×720 at 150 %', viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 },
  { name: '1920×1080 at 200 %', viewport: { width: 960, height: 540 }, deviceScaleFactor: 2 },
  { name: 'a 360 px phone', viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 },
  { name: '1920×1080', viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 },
];

/** expectUsable checks that a control can be clicked where it is: nothing covers it once scrolled to. */
async function expectUsable(name: string, locator: ReturnType<Page['getByRole']>) {
  await expect(locator, name).toBeVisible();
  // A trial click scrolls to the element and checks that it, not something above it, takes the click.
  await locator.click({ trial: true, timeout: 5_000 });
}

/** expectNoSidewaysScroll checks that the page is no wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(clientWidth);
}

for (const screen of screens) {
  test.describe(`on ${screen.name}`, () => {
    test.use({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });

    test('the FEC lab keeps Step, Play, the counters and the time line clickable', async ({ page }) => {
      await page.goto('./?lab=fec');
      await expectUsable('Step', page.getByRole('button', { name: 'Step' }));
      await page.getByRole('button', { name: 'Step' }).click();
      await expect(page.getByText(/^Packet 1 of/)).toBeVisible();
      await expectUsable('Play', page.getByRole('button', { name: 'Play' }));
      await expectUsable('Reset', page.getByRole('button', { name: 'Reset' }));
      await expectUsable('Run to end', page.getByRole('button', { name: 'Run to end' }));
      await expectUsable('a counter', page.getByRole('button', { name: 'About Residual loss' }));
      await expectUsable('the time line', page.getByRole('img', { name: /^Time line:/ }));
      await expectUsable('the settings', page.getByRole('form', { name: 'FEC lab settings' }).getByLabel('k, sources per repair'));
      await expectNoSidewaysScroll(page);
      // On a narrow screen the controls and the time line come before the settings, in the first screen.
      if (screen.viewport.width <= 900) {
        await page.evaluate(() => window.scrollTo(0, 0));
        const top = async (locator: ReturnType<Page['getByRole']>) => (await locator.boundingBox())?.y ?? Infinity;
        const stepTop = await top(page.getByRole('button', { name: 'Step' }));
        expect(stepTop).toBeLessThan(await top(page.getByRole('form', { name: 'FEC lab settings' })));
        expect(stepTop).toBeLessThan((screen.viewport.height * 2) / 3);
        expect(await top(page.getByRole('img', { name: /^Time line:/ }))).toBeLessThan(screen.viewport.height);
      }
      await page.screenshot({ path: `test-output/layout-fec-${screen.viewport.width}.png`, fullPage: true });
    });

    test('the channel lab keeps its charts and controls clickable', async ({ page }) => {
      await page.goto('./?lab=channel&sources=20000&packets=5000');
      await expect(page.getByRole('status').filter({ hasText: /^Done: 20,000 source packets per k/ })).toBeVisible({ timeout: 60_000 });
      await expectUsable('the residual chart', page.getByRole('group', { name: /^Residual loss per k/ }));
      await expectUsable('the burst histogram', page.getByRole('img', { name: /^Burst lengths/ }));
      await expectUsable('a measure', page.getByRole('button', { name: 'About Measured loss' }));
      await expectUsable('the settings', page.getByRole('form', { name: 'Channel lab settings' }).getByLabel('Values of k'));
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `test-output/layout-channel-${screen.viewport.width}.png`, fullPage: true });
    });
  });
}
