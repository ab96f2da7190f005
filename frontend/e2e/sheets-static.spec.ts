import { expect, test } from './fixtures';

// The list of lab sheets, and what a sheet does with a widget block it cannot read: it says so
// where the block is, naming the problem, and shows the rest of the sheet.
test.use({ expectedFailures: [/\/labs\/api\//] });

test('lists the sheets, each with its goal', async ({ page }) => {
  await page.goto('./?lab=sheets');
  const sheets = page.getByRole('listitem').filter({ has: page.getByRole('heading') });
  await expect(sheets).toHaveCount(6);
  await expect(sheets.first()).toContainText('See how a sliding-window code S(k,z) builds its repair packets');
  await page.goto('./?lab=sheets&sheet=no-such-sheet');
  await expect(page.getByRole('alert')).toHaveText('There is no sheet named “no-such-sheet”; the sheets are listed below.');
});

test('a widget block that does not parse is named in the sheet, and the rest still shows', async ({ page }) => {
  await page.route('**/sheets.json', async (route) => {
    const response = await route.fetch();
    const sheets = await response.json();
    sheets.data[0].markdown += '\n\n```satlab-fec\n{"k": 5, "z": \n```\n\n```satlab-fec\n{"window": 5}\n```\n\nThe end of the sheet.\n';
    await route.fulfill({ response, json: sheets });
  });
  await page.goto('./?lab=sheets&sheet=sliding-window');
  const alerts = page.getByRole('alert');
  await expect(alerts).toHaveCount(2);
  await expect(alerts.nth(0)).toContainText('This widget cannot be shown. The satlab-fec block is not JSON:');
  await expect(alerts.nth(1)).toHaveText(
    /^This widget cannot be shown\. The satlab-fec block sets "window", which is not a setting of the FEC lab; its settings are .*k, z, /,
  );
  await expect(page.getByText('The end of the sheet.')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Sliding-window FEC lab, preset by the sheet' })).toHaveCount(2);
});
