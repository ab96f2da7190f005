import { test as base, expect } from '@playwright/test';

/**
 * test is Playwright's, failing any test whose page throws, logs an error or misses a file.
 * A test that provokes an error on purpose (a 422 from the API, no API on a static server) lists
 * the addresses of those responses in expectedFailures.
 */
export const test = base.extend<{ expectedFailures: RegExp[]; pageErrors: void }>({
  expectedFailures: [[], { option: true }],
  pageErrors: [
    async ({ page, expectedFailures }, use) => {
      const errors: string[] = [];
      const expected = (url: string) => expectedFailures.some((pattern) => pattern.test(url));
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('response', (response) => {
        if (response.status() >= 400 && !expected(response.url())) errors.push(`${response.status()} for ${response.url()}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && !expected(message.location().url)) errors.push(message.text());
      });
      await use();
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
