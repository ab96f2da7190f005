import { expect, test } from './fixtures';

// The console's forms send what they show, against the real backend (its limits come from its
// OpenAPI document); nothing here starts a run.
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

test('an out-of-range number disables Run, says why beside it, and the command line says nothing would be sent', async ({ page }) => {
  await page.goto('./?lab=experiments');
  const form = page.getByRole('form', { name: 'New run' });
  await form.getByLabel('Lab').selectOption('geo-ideal');
  const size = form.getByLabel('Size, bytes');
  const run = form.getByRole('button', { name: 'Run' });
  for (const typed of ['-5', '0', '11811160064']) {
    await size.fill(typed);
    const why = `Size, bytes takes a whole number from 1 to 10737418240, not ${typed}.`;
    await expect(run).toBeDisabled();
    await expect(run).toHaveAccessibleDescription(why);
    await expect(size).toHaveAccessibleDescription(new RegExp(why.replaceAll('.', '\\.')));
    await expect(form.getByText('Nothing would be sent: see why beside the Run button.')).toBeVisible();
    await expect(form.getByText(/^satlab run labs\//)).toHaveCount(0);
  }
  await size.fill('300000');
  await expect(run).toBeEnabled();
  await expect(form.getByText('satlab run labs/geo-ideal.yaml --set flows.0.size_bytes=300000', { exact: true })).toBeVisible();

  await form.getByLabel('Concurrent flows').fill('20');
  await expect(run).toHaveAccessibleDescription('Concurrent flows takes a whole number from 1 to 16, not 20.');
  await form.getByLabel('Concurrent flows').fill('2');
  await expect(run).toBeEnabled();
  await expect(form.getByText('satlab run labs/geo-ideal.yaml --set flows.0.size_bytes=300000 --set flows.0.count=2', { exact: true })).toBeVisible();

  // S(10,5) is refused here, in a sentence, before the backend would refuse it.
  await form.getByLabel('Protect the path with S(k,z)').check();
  await form.getByLabel('z, window size').fill('5');
  await form.getByLabel('k, sources per repair').fill('10');
  await expect(run).toHaveAccessibleDescription('k, sources per repair takes a whole number from 1 to 5, not 10.');
  await form.getByLabel('z, window size').fill('100');
  await expect(run).toBeEnabled();
  await expect(form.getByText(/--set tunnel\.k=10 --set tunnel\.z=100$/)).toBeVisible();
});

test('out-of-range iterations, parallel runs or seed disable Start campaign, and the count and the file say nothing would be sent', async ({
  page,
}) => {
  await page.goto('./?lab=experiments&view=campaigns');
  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Lab').selectOption('geo-ideal');
  const start = form.getByRole('button', { name: 'Start campaign' });
  const count = form.getByRole('status');
  await expect(count).toHaveText('1 configuration × 3 iterations = 3 runs');
  await form.getByText('The same campaign as a file').click();
  await expect(form.getByText('"iterations": 3')).toBeVisible();
  for (const [label, typed, why] of [
    ['Iterations', '0', 'Iterations takes a whole number from 1 to 10000, not 0.'],
    ['Iterations', '-2', 'Iterations takes a whole number from 1 to 10000, not -2.'],
    ['Parallel runs', '9', 'Parallel runs takes a whole number from 1 to 8, not 9.'],
    ['Seed', '-1', 'Seed takes a whole number from 0 to 4294967295, not -1.'],
  ]) {
    const field = form.getByLabel(label, { exact: true });
    const before = await field.inputValue();
    await field.fill(typed);
    await expect(start).toBeDisabled();
    await expect(start).toHaveAccessibleDescription(why);
    await expect(count).toHaveText('No runs: nothing would be sent (see why beside Start campaign).');
    await expect(form.getByText('"iterations"')).toHaveCount(0);
    await field.fill(before);
    await expect(start).toBeEnabled();
  }
  await form.getByLabel('Iterations').fill('2');
  await expect(count).toHaveText('1 configuration × 2 iterations = 2 runs');
  await expect(form.getByText('"iterations": 2')).toBeVisible();
});

test.describe('unknown ids', () => {
  test.use({ expectedFailures: [/\/api\/campaigns\/nope$/] });

  test('a run or campaign the backend does not have is named, not ignored', async ({ page }) => {
    await page.goto('./?lab=experiments&run=doesnotexist');
    await expect(page.getByRole('alert')).toHaveText('The backend has no run doesnotexist.');
    await page.goto('./?lab=experiments&view=campaigns&campaign=nope');
    await expect(page.getByRole('alert')).toHaveText('The backend has no campaign nope.');
  });
});
