import { expect, test } from './fixtures';

// The static copy of the site has no API: the Sign in page says so instead of offering forms that cannot work.
test.use({ expectedFailures: [/\/api\/auth\/me$/] });

test('the Sign in page of the static site says that signing in needs the backend', async ({ page }) => {
  await page.goto('./?lab=sign-in');
  await expect(page.getByText(/^Signing in needs the satlab backend; this copy of the site has the browser labs only/)).toBeVisible();
  await expect(page.getByRole('form')).toHaveCount(0);
});
