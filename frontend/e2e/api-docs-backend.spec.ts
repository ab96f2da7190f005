import { expect, test } from './fixtures';

// The API's documentation and the built site as `satlab serve` serves them (playwright.config.ts).
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

test('/api/docs works offline: every file from this server, the operations listed', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  await page.context().route('**/*', (route) => {
    if (new URL(route.request().url()).origin === origin) return route.continue();
    elsewhere.push(route.request().url());
    return route.abort();
  });
  await page.goto('./api/docs');
  await expect(page.getByRole('heading', { name: /^satlab/ })).toBeVisible();
  for (const path of ['/api/runs', '/api/campaigns', '/api/capabilities']) {
    await expect(page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path}$`) }).first()).toBeVisible();
  }
  expect(elsewhere).toEqual([]);
});

test('the site is compressed, its hashed files cached for good and its page revalidated', async ({ page, request }) => {
  await page.goto('./?lab=fec');
  const script = await page.locator('script[type="module"]').getAttribute('src');
  const asset = await request.get(new URL(script!, page.url()).toString(), { headers: { 'accept-encoding': 'gzip' } });
  expect(asset.headers()['content-encoding']).toBe('gzip');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const index = await request.get('./');
  expect(index.headers()['cache-control']).toBe('no-cache');
});
