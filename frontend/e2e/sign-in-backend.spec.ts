import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { freePort } from './own-backend';

// Signing in, against a real `satlab serve` of its own: with an instructor token, so that sign-in
// is required even on loopback (the shared backend of the other specs runs without one).
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

const TOKEN = 'a-token-for-the-sign-in-spec';
const satlab = fileURLToPath(new URL('../../backend/.venv/bin/satlab', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
let server: ChildProcess;
let scratch: string;
let site: string;

test.beforeAll(async () => {
  const port = await freePort();
  scratch = mkdtempSync(join(tmpdir(), 'satlab-sign-in-'));
  site = `http://127.0.0.1:${port}/`;
  server = spawn(satlab, ['--db', join(scratch, 'satlab.db'), 'serve', '--host', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, SATLAB_FRONTEND_DIR: dist, SATLAB_INSTRUCTOR_TOKEN: TOKEN },
    stdio: 'inherit',
  });
  await expect
    .poll(() => fetch(`${site}api/auth/me`).then((response) => response.status, () => 0), { timeout: 30_000 })
    .toBe(200);
});

test.afterAll(() => {
  server.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

test.describe('refusals', () => {
  test.use({ expectedFailures: [/\/api\/auth\/(instructor|student)$/] });

  test('the instructor signs in with the token, a student joins with the class code', async ({ page, browser }) => {
    await page.goto(`${site}?lab=class`);
    const instructorForm = page.getByRole('form', { name: 'Instructor sign-in' });
    await instructorForm.getByLabel('Instructor token').fill('a wrong guess');
    await instructorForm.getByRole('button', { name: 'Sign in as instructor' }).click();
    await expect(instructorForm.getByRole('alert')).toHaveText("token: that is not the instructor's token.");
    await instructorForm.getByLabel('Instructor token').fill(TOKEN);
    await instructorForm.getByRole('button', { name: 'Sign in as instructor' }).click();
    await expect(page.getByText('Signed in as the instructor.')).toBeVisible();
    const code = (await page.getByRole('status', { name: 'The class code' }).textContent()) ?? '';
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    await expect(page.getByRole('region', { name: 'Students' })).toContainText('Nobody has joined yet.');
    await page.screenshot({ path: 'test-output/sign-in-instructor.png', fullPage: true });

    // A student, in a browser of their own.
    const student = await (await browser.newContext()).newPage();
    await student.goto(`${site}?lab=class`);
    const join = student.getByRole('form', { name: 'Join the class' });
    await join.getByLabel('Class code').fill(code.toLowerCase());
    await join.getByLabel('Your name').fill('Ada');
    await join.getByRole('button', { name: 'Join' }).click();
    await expect(student.getByText('Signed in as Ada, a student of this class.')).toBeVisible();
    const quotas = student.getByRole('region', { name: 'What you may run' });
    await expect(quotas.getByRole('row', { name: 'Runs one student may have queued or running at once 2' })).toBeVisible();
    // Each quota in words and units (issue 18: "50000000", and "1 lets students start campaigns, 0 keeps them… | 0").
    await expect(quotas.getByRole('row', { name: "Bytes one flow of a student's run may move (size_bytes) 50 MB (50,000,000 bytes)" })).toBeVisible();
    await expect(quotas.getByRole('row', { name: 'Students may start campaigns no' })).toBeVisible();
    const key = (await student.getByRole('status', { name: 'Your personal key' }).textContent()) ?? '';
    expect(key).toMatch(/^[A-Z2-9]{10}$/);
    await student.screenshot({ path: 'test-output/sign-in-student.png', fullPage: true });

    // Somebody else cannot join as Ada; Ada can, with her key, from another browser.
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${site}?lab=class`);
    const again = other.getByRole('form', { name: 'Join the class' });
    await again.getByLabel('Class code').fill(code);
    await again.getByLabel('Your name').fill('ada');
    await again.getByRole('button', { name: 'Join' }).click();
    await expect(again.getByRole('alert')).toContainText('name: Ada is taken in this class');
    await again.getByLabel('Your personal key (from another computer)').fill(key);
    await again.getByRole('button', { name: 'Join' }).click();
    await expect(other.getByText('Signed in as Ada, a student of this class.')).toBeVisible();

    await page.reload();
    const students = page.getByRole('region', { name: 'Students' });
    await expect(students).toContainText(`Ada · 0 runs · key ${key}`);
    await students.getByRole('button', { name: 'Remove Ada' }).click();
    await expect(students).toContainText('Nobody has joined yet.');
    await student.reload();
    await expect(student.getByRole('form', { name: 'Join the class' })).toBeVisible(); // her sessions ended
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('form', { name: 'Instructor sign-in' })).toBeVisible();
  });
});

test('the instructor changes a quota within its ceiling and the presets students may run, and sees them in force', async ({ page, browser }) => {
  await page.goto(`${site}?lab=class`);
  const signIn = page.getByRole('form', { name: 'Instructor sign-in' });
  await signIn.getByLabel('Instructor token').fill(TOKEN);
  await signIn.getByRole('button', { name: 'Sign in as instructor' }).click();
  const quotas = page.getByRole('form', { name: 'Quotas' });
  const concurrent = quotas.getByLabel('Runs one student may have queued or running at once');
  const save = quotas.getByRole('button', { name: 'Save quotas' });
  await expect(concurrent).toHaveValue('2');
  // The ceiling comes from the backend's OpenAPI document: above it, the form sends nothing.
  await concurrent.fill('9');
  await expect(concurrent).toHaveAccessibleDescription(/Runs one student may have queued or running at once takes a whole number from 0 to 8, not 9\./);
  await expect(save).toBeDisabled();
  await concurrent.fill('1');
  await quotas.getByLabel('Students may start campaigns').check();
  await save.click();
  await expect(quotas.getByRole('status')).toHaveText("Saved: students' next requests follow these quotas.");
  await page.screenshot({ path: 'test-output/sign-in-quotas.png', fullPage: true });
  await page.reload();
  await expect(page.getByRole('form', { name: 'Quotas' }).getByLabel('Runs one student may have queued or running at once')).toHaveValue('1');

  const student = await (await browser.newContext()).newPage();
  await student.goto(`${site}?lab=class`);
  const join = student.getByRole('form', { name: 'Join the class' });
  await join.getByLabel('Class code').fill((await page.getByRole('status', { name: 'The class code' }).textContent()) ?? '');
  await join.getByLabel('Your name').fill('Grace');
  await join.getByRole('button', { name: 'Join' }).click();
  const inForce = student.getByRole('region', { name: 'What you may run' });
  await expect(inForce.getByRole('row', { name: 'Runs one student may have queued or running at once 1' })).toBeVisible();
  await expect(inForce.getByRole('row', { name: 'Students may start campaigns yes' })).toBeVisible();

  // The presets students may run: only geo-ideal, then every one again.
  const presets = page.getByRole('form', { name: 'Presets students may run' });
  await presets.getByLabel('Only these:').check();
  await presets.getByLabel('geo-ideal', { exact: true }).check();
  await presets.getByRole('button', { name: 'Save presets' }).click();
  await expect(presets.getByRole('status')).toHaveText('Saved: students may run geo-ideal.');
  await expect(page.getByRole('region', { name: 'Students' })).toContainText('They run these presets: geo-ideal.');
  await presets.getByLabel('Every preset, those added later too').check();
  await presets.getByRole('button', { name: 'Save presets' }).click();
  await expect(page.getByRole('region', { name: 'Students' })).toContainText('They run every preset.');

  // Back to the defaults, for the other tests of this server.
  const defaults = await (await page.request.get(`${site}api/class/quotas`)).json();
  const values = Object.fromEntries(defaults.map((quota: { name: string; default: number }) => [quota.name, quota.default]));
  expect((await page.request.put(`${site}api/class/quotas`, { data: values })).status()).toBe(200);
});

/** signInAsInstructor signs page in as the instructor and gives the class code. */
async function signInAsInstructor(page: import('@playwright/test').Page): Promise<string> {
  await page.goto(`${site}?lab=sign-in`);
  const signIn = page.getByRole('form', { name: 'Instructor sign-in' });
  await signIn.getByLabel('Instructor token').fill(TOKEN);
  await signIn.getByRole('button', { name: 'Sign in as instructor' }).click();
  return (await page.getByRole('status', { name: 'The class code' }).textContent()) ?? '';
}

test.describe('what a role may do', () => {
  // A signed-out browser's requests are refused (401), on purpose.
  test.use({ expectedFailures: [/\/api\/(runs|limits|capabilities|labs|openapi\.json|events)\b/] });

  test('a student is offered what the role allows, quotas are checked before sending, refusals show where the student acts', async ({
    page,
    browser,
  }) => {
    const code = await signInAsInstructor(page);
    const student = await (await browser.newContext()).newPage();
    await student.goto(`${site}?lab=sign-in`);
    const join = student.getByRole('form', { name: 'Join the class' });
    await join.getByLabel('Class code').fill(code);
    await join.getByLabel('Your name').fill('Lin');
    await join.getByRole('button', { name: 'Join' }).click();
    await expect(student.getByText('Signed in as Lin, a student of this class.')).toBeVisible();

    // The quota, from GET /api/limits, beside the field: nothing is sent.
    await student.goto(`${site}?lab=experiments`);
    const form = student.getByRole('form', { name: 'New run' });
    const size = form.getByLabel('Size, bytes');
    await size.fill('60000000');
    await expect(size).toHaveAccessibleDescription(/Your quota lets a flow move at most 50 MB \(50,000,000 bytes\) \(student_flow_bytes/);
    await expect(form.getByRole('button', { name: 'Run' })).toBeDisabled();

    // Campaigns are the instructor's here: the form says so, and offers nothing to send.
    await student.goto(`${site}?lab=experiments&view=campaigns`);
    const campaign = student.getByRole('form', { name: 'New campaign' });
    await expect(campaign.getByRole('note')).toContainText("Campaigns are the instructor's on this server");
    await expect(campaign.getByLabel('Iterations')).toBeDisabled();
    await expect(campaign.getByRole('button', { name: 'Start campaign' })).toBeDisabled();

    // Signed out while the form is open (the instructor removes the student): the refusal comes beside
    // Run, takes the focus, is announced, and links to Sign in.
    await student.goto(`${site}?lab=experiments`);
    await form.getByLabel('Size, bytes').fill('200000');
    await page.reload();
    await page.getByRole('region', { name: 'Students' }).getByRole('button', { name: 'Remove Lin' }).click();
    await expect(page.getByRole('region', { name: 'Students' })).not.toContainText('Lin ·');
    const run = form.getByRole('button', { name: 'Run' });
    await run.scrollIntoViewIfNeeded();
    await run.click();
    const refusal = form.getByRole('alert');
    await expect(refusal).toContainText('This server wants to know who starts a run: sign in first');
    await expect(refusal).toBeFocused();
    const [runBox, refusalBox] = [await run.boundingBox(), await refusal.boundingBox()];
    expect(Math.abs((refusalBox?.y ?? 0) - (runBox?.y ?? 0))).toBeLessThan(200);
    await expect(refusal).toBeInViewport();
    await refusal.getByRole('link', { name: 'sign in' }).click();
    await expect(student.getByRole('form', { name: 'Join the class' })).toBeVisible();
  });

  test('a signed-out visitor is told to sign in, with a link, and shown no form', async ({ page }) => {
    // The API tells a signed-out visitor nothing (401): the page says why, not "(POST /api/auth/instructor or …)".
    await page.goto(`${site}?lab=experiments`);
    const why = page.getByRole('region', { name: 'Experiments need you to sign in' });
    await expect(why).toContainText('This server wants to know who runs what: sign in as the instructor');
    await expect(page.getByRole('form', { name: 'New run' })).toHaveCount(0);
    await why.getByRole('link', { name: 'sign in' }).click();
    await expect(page.getByRole('form', { name: 'Instructor sign-in' })).toBeVisible();
  });
});
