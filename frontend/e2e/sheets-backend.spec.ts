import { expect, test } from './fixtures';
import { reference, runWidget } from './sheets';

// Against the real backend (playwright.config.ts starts `satlab serve` on a scratch database):
// a sheet's run widget starts its run with the sheet's overrides and follows it with the
// console's run view, the reference run still charted below to compare. 100 kB over geo-ideal:
// about 3 s of flows.
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

test('a sheet starts its run on the backend and follows it live beside the reference run', async ({ page }) => {
  await page.goto('./?lab=sheets&sheet=start-up');
  const widget = runWidget(page, 'startup-cubic-100k');
  await expect(widget.getByText(/^Running it needs the satlab backend/)).toHaveCount(0);
  await widget.getByRole('button', { name: 'Run it' }).click();

  const panel = widget.getByRole('region', { name: /^Run [0-9a-f]+ · geo-ideal$/ });
  await expect(panel).toBeVisible();
  await expect(panel.getByText('1 × tcp cubic (Hystart off), 100,000 bytes · no FEC tunnel')).toBeVisible();
  const state = panel.getByRole('group', { name: 'State', exact: true }).getByRole('definition');
  await expect(state).toHaveText('Done', { timeout: 45_000 });
  // The live run's download time, in its summary, is a round-trip count like the reference's: 2–4 s.
  const summary = panel.getByRole('table', { name: 'Summary per flow' });
  const column = (await summary.getByRole('columnheader').allTextContents()).findIndex((header) => header.startsWith('Download time, s'));
  // The first column holds row headers (the flow), not cells.
  const time = Number(await summary.locator('tbody tr').first().getByRole('cell').nth(column - 1).textContent());
  expect(time).toBeGreaterThan(1.5);
  expect(time).toBeLessThan(2 * (reference('startup-cubic-100k').result.flows[0].download_time_s ?? 0));
  await expect(widget.getByRole('region', { name: /^Reference run [0-9a-f]+, shipped with the sheet$/ })).toBeVisible();
  await expect(widget.getByRole('button', { name: 'Run it again' })).toBeVisible();
  await expect(page).toHaveURL(/\?lab=sheets&sheet=start-up$/);

  // Printed, the sheet keeps the reference run and drops the live one with its controls.
  await page.emulateMedia({ media: 'print' });
  await expect(panel).toBeHidden();
  await expect(widget.getByRole('region', { name: /^Reference run/ })).toBeVisible();
});
