import { expect, test } from './fixtures';

const text =
  'Sliding-window FEC over a geostationary link: every repair packet mixes the last z source packets, ' +
  'so a lost packet is rebuilt as soon as enough repairs arrive.';

test('steps a seeded lossy run of S(4,12) and rebuilds the text', async ({ page }) => {
  await page.goto('./?lab=fec');
  const settings = page.getByRole('form', { name: 'FEC lab settings' });
  await settings.getByLabel('k, sources per repair').fill('4');
  await settings.getByLabel('z, window size').fill('12');
  await settings.getByLabel('Model').selectOption({ label: 'Bernoulli (independent losses)' });
  await settings.getByLabel('Loss probability').fill('0.2');
  await settings.getByLabel('Seed').fill('32');
  await settings.getByLabel('Text').fill(text);
  await expect(page).toHaveURL(/[?&]k=4&z=12&/);

  // 160 bytes in 8-byte symbols: 20 sources and 5 repairs.
  const progress = page.getByText(/^Packet \d+ of \d+/);
  await expect(progress).toHaveText('Packet 0 of 25');
  const step = page.getByRole('button', { name: 'Step' });
  await step.focus();
  await page.keyboard.press('Enter');
  await expect(progress).toHaveText('Packet 1 of 25');
  for (let sent = 2; sent <= 25; sent += 1) {
    await step.click();
    await expect(progress).toContainText(`Packet ${sent} of 25`);
  }
  await expect(step).toBeDisabled();

  const counter = (name: string) => page.getByRole('group', { name, exact: true }).getByRole('definition');
  await expect(counter('Sent')).toHaveText('25');
  await expect(counter('Sources')).toHaveText('20');
  await expect(counter('Repairs')).toHaveText('5');
  await expect(counter('Sources lost')).toHaveText('4');
  await expect(counter('Rebuilt')).toHaveText('4');
  await expect(counter('Still missing')).toHaveText('0');
  await expect(counter('Residual loss')).toHaveText('0.0 %');
  await expect(counter('Overhead')).toHaveText('20.0 %');
  await expect(page.getByRole('list', { name: 'Latest packets' })).toBeVisible();
  await expect(page.getByRole('img', { name: /25 of 25 packets sent, \d+ lost by the channel, 4 sources rebuilt/ })).toBeVisible();

  const received = page.getByRole('figure', { name: 'Text at the receiver' });
  await expect(received.locator('pre')).toHaveText(text);
  await expect(page.getByText('The receiver holds the original text, byte for byte.')).toBeVisible();
  await page.screenshot({ path: 'test-output/fec-lab-text.png', fullPage: true });
});

test('keeps the lab in the URL: a shared link reopens the same run', async ({ page }) => {
  await page.goto('./?lab=fec&k=3&z=9&kind=ge_packet&p=0.3&q=0.5&lossGood=0&lossBad=0.6&seed=35&payload=image&symbolBytes=96');
  const settings = page.getByRole('form', { name: 'FEC lab settings' });
  await expect(settings.getByLabel('k, sources per repair')).toHaveValue('3');
  await expect(page.getByRole('button', { name: 'S(3,9)' })).toHaveAttribute('aria-pressed', 'true');
  await expect(settings.getByLabel('Model')).toHaveValue('ge_packet');
  await expect(settings.getByLabel('q, bad → good')).toHaveValue('0.5');
  await expect(settings.getByLabel('Send')).toHaveValue('image');

  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(page.getByRole('img', { name: /image as the receiver holds it/ })).toBeVisible();
  const counter = (name: string) => page.getByRole('group', { name, exact: true }).getByRole('definition');
  await expect(counter('Sources')).toHaveText('24');
  const [lost, rebuilt, missing, givenUp] = await Promise.all(
    ['Sources lost', 'Rebuilt', 'Still missing', 'Given up'].map(async (name) => Number(await counter(name).textContent())),
  );
  expect(lost).toBeGreaterThan(0);
  expect(rebuilt + missing + givenUp).toBe(lost);
  const verdict = missing + givenUp === 0 ? 'The receiver holds the original image' : 'The receiver does not hold the whole image yet';
  await expect(page.getByText(verdict)).toBeVisible();
  await page.screenshot({ path: 'test-output/fec-lab-image.png', fullPage: true });
});

test('plays a run to its end at the chosen speed', async ({ page }) => {
  await page.goto('./?lab=fec');
  await page.getByLabel('Speed').selectOption({ label: '32 packets/s' });
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByText(/^Packet 27 of 27 · finished/)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Play' })).toBeDisabled();
});
