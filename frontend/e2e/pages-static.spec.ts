import { expect, test } from './fixtures';

// The Sign in page asks the API who is signed in; the static copy has none.
test.use({ expectedFailures: [/\/api\/auth\/me$/] });

test('an address that names no page says so and lists the pages, rather than opening another', async ({ page }) => {
  await page.goto('./?lab=signin');
  await expect(page.getByRole('heading', { level: 1, name: 'No such page' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('This address asks for the page “signin” (?lab=signin), which satlab does not have.');
  await expect(page.getByRole('navigation', { name: 'Labs' }).locator('[aria-current="page"]')).toHaveCount(0);
  await expect(page.getByText(/^codec: WebAssembly/)).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\?lab=sign-in$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});

test('each page’s name in the address is the one its navigation link uses; a former name still opens its page', async ({ page }) => {
  await page.goto('./?lab=class');
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/\?lab=sign-in$/);
  for (const [name, title] of [
    ['fec', 'Sliding-window FEC lab'],
    ['channel', 'Channel lab'],
    ['experiments', 'Experiments'],
    ['sign-in', 'Sign in'],
    ['studies', 'Studies'],
    ['sheets', 'Lab sheets'],
  ]) {
    await expect(page.getByRole('navigation', { name: 'Labs' }).getByRole('link', { name: title, exact: true })).toHaveAttribute(
      'href',
      `?lab=${name}`,
    );
  }
});
