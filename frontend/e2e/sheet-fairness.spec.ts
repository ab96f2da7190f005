import { expect, test } from './fixtures';
import { expectPrintable, expectReference, openSheet, questions, reference, runWidget } from './sheets';

// The fairness sheet on the static site: three runs of two flows, the second 30 s late.
test.use({ expectedFailures: [/\/labs\/api\//] });

const runs = ['latecomer-cubic', 'latecomer-bbr', 'latecomer-bbr-on-cubic'];

test('fairness and latecomers', async ({ page }) => {
  await openSheet(page, 'Fairness and latecomers');
  await expect(questions(page)).toHaveCount(6);
  for (const id of runs) {
    const widget = runWidget(page, id);
    await expectReference(widget, id);
    const jain = reference(id).result.iterations[0].jain_index ?? 0;
    await expect(widget.getByRole('group', { name: "Jain's fairness index" }).getByRole('definition')).toHaveText(jain.toFixed(3));
    await expect(widget.getByRole('table').locator('tbody tr').nth(1).locator('td').first()).toHaveText('30');
  }
  await expectPrintable(page);
});
