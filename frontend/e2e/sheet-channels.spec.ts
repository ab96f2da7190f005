import { expect, test } from './fixtures';
import { expectPrintable, labWidget, openSheet, questions } from './sheets';

// The channels sheet on the static site: two channel labs preset by the sheet (the optical channel
// as measured, the train), and what the sheet has students find: the train's outages of 16 packets
// are all rebuilt by S(5,100) and not by S(10,100), as the rule z / k says.
test.use({ expectedFailures: [/\/labs\/api\//] });

const measure = (lab: ReturnType<typeof labWidget>, name: string) => lab.getByRole('group', { name, exact: true }).getByRole('definition');

test('satellite channels, and what S(k,z) leaves', async ({ page }) => {
  await openSheet(page, 'Satellite channels, and what S(k,z) leaves');
  await expect(questions(page)).toHaveCount(6);

  const optical = labWidget(page, 'Channel lab').nth(0);
  const train = labWidget(page, 'Channel lab').nth(1);
  await expect(optical.getByText(/set by the sheet: kind = ge_time, p = 0.0157, q = 0.599, stepMs = 10/)).toBeVisible();
  await expect(optical.getByLabel('Model')).toHaveValue('ge_time');
  await expect(optical.getByLabel('p, good → bad')).toHaveValue('0.0157');
  await expect(optical.getByLabel('q, bad → good')).toHaveValue('0.599');
  await expect(optical.getByLabel('Values of k')).toHaveValue('1,2,3,5,8,10,15,20');
  await expect(train.getByLabel('Period (ms)')).toHaveValue('258');
  await expect(train.getByLabel('Outage duration (ms)')).toHaveValue('15.2');
  await expect(train.getByLabel('Packets per row')).toHaveValue('258');
  await expect(page).toHaveURL(/\?lab=sheets&sheet=channels$/);

  // 1 ms apart, an outage of 15.2 ms takes 16 packets: 78 outages in 20,000 packets.
  await expect(measure(train, 'Mean burst')).toHaveText('16 packets');
  await expect(train.getByRole('status').filter({ hasText: /^Done: 50,000 source packets per k/ })).toBeVisible({ timeout: 60_000 });
  const rows = train.getByRole('table', { name: 'Residual loss after S(k,100) for each k' });
  const residual = (code: string) => rows.getByRole('row', { name: new RegExp(`^${code.replace(/[()]/g, '\\$&')} `) }).locator('td').nth(2);
  await expect(residual('S(5,100)')).toHaveText('0 %');
  await expect(residual('S(10,100)')).not.toHaveText('0 %');

  await expectPrintable(page);
});
