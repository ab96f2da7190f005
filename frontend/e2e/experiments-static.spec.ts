import { expect, test } from './fixtures';

// A static copy of the site has no API: the console must say what it needs instead of failing.
test.use({ expectedFailures: [/\/labs\/api\//] });

test('says that experiments need the backend when the site is served without it', async ({ page }) => {
  await page.goto('./?lab=experiments');
  await expect(page.getByRole('link', { name: 'Experiments' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Experiments need the satlab backend' })).toBeVisible();
  await expect(page.getByText('make run', { exact: true })).toBeVisible();
  await expect(page.getByRole('form', { name: 'New run' })).toHaveCount(0);
  // The browser labs do not need it.
  await page.getByRole('link', { name: 'Channel lab' }).click();
  await expect(page.getByRole('form', { name: 'Channel lab settings' })).toBeVisible();
});
