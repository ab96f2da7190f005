import { expect, test } from './fixtures';
import { expectPrintable, expectReference, openSheet, questions, reference, runWidget } from './sheets';

// The loss sheet on the static site: five runs, each with the reference run shipped with the sheet.
test.use({ expectedFailures: [/\/labs\/api\//] });

const runs = ['optical-ideal-cubic', 'optical-cubic', 'optical-bbr', 'optical-cubic-s5', 'optical-bbr-s5'];

test('loss is not congestion: CUBIC and BBR on a lossy GEO path', async ({ page }) => {
  await openSheet(page, 'Loss is not congestion: CUBIC and BBR on a lossy GEO path');
  await expect(questions(page)).toHaveCount(7);
  for (const id of runs) await expectReference(runWidget(page, id), id);
  // The sheet's claim, in its shipped runs: the channel costs CUBIC far more than BBR.
  const time = (id: string) => reference(id).result.flows[0].download_time_s ?? Infinity;
  expect(time('optical-cubic')).toBeGreaterThan(3 * time('optical-ideal-cubic'));
  expect(time('optical-bbr')).toBeLessThan(1.5 * time('optical-ideal-cubic'));
  // A run through the tunnel charts its FEC counters.
  await expect(runWidget(page, 'optical-cubic-s5').getByRole('group', { name: 'FEC: rebuilt' })).toBeVisible();
  await expectPrintable(page);
});
