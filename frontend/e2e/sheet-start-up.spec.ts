import { expect, test } from './fixtures';
import { expectPrintable, expectReference, openSheet, questions, reference, runWidget } from './sheets';

// The start-up sheet on the static site: five runs of geo-ideal, each with its reference run.
test.use({ expectedFailures: [/\/labs\/api\//] });

const runs = ['startup-cubic-100k', 'startup-cubic-1m', 'startup-cubic-10m', 'startup-bbr-1m', 'startup-cubic-1m-rtt50'];

test('start-up on a long path: link utilisation against transfer size', async ({ page }) => {
  await openSheet(page, 'Start-up on a long path: link utilisation against transfer size');
  await expect(questions(page)).toHaveCount(6);
  for (const id of runs) await expectReference(runWidget(page, id), id);
  // Utilisation, the share of the 12 Mbit/s link, grows with the size.
  const share = (id: string) => (reference(id).result.flows[0].goodput_mbps ?? 0) / 12;
  expect(share('startup-cubic-100k')).toBeLessThan(share('startup-cubic-1m'));
  expect(share('startup-cubic-1m')).toBeLessThan(share('startup-cubic-10m'));
  const row = runWidget(page, 'startup-cubic-10m').getByRole('table').locator('tbody tr');
  await expect(row.locator('td').nth(3)).toHaveText((share('startup-cubic-10m') * 100).toFixed(1));
  await expectPrintable(page);
});
