import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { ReferenceRun } from '../src/features/sheets/api/types';
import { expect } from './fixtures';

/**
 * What every lab sheet's Playwright spec checks, on the static site (no backend): the sheet opens
 * from the list, its goal, steps and questions are there, its widgets mount preset, each run
 * charts the reference run shipped with it, and print shows the text and the widgets' state
 * without any control.
 */

/** A reference run as shipped in labs/sheets/data. */
export const reference = (id: string) =>
  JSON.parse(readFileSync(new URL(`../../labs/sheets/data/${id}.json`, import.meta.url), 'utf8')) as ReferenceRun;

/** openSheet opens a sheet from the list of sheets, by its title. */
export async function openSheet(page: Page, title: string) {
  await page.goto('./?lab=sheets');
  await expect(page.getByRole('link', { name: 'Lab sheets' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page).toHaveURL(/[?&]sheet=[a-z-]+/);
  await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  for (const section of ['Goal', 'Background', 'Steps', 'Questions']) {
    await expect(page.getByRole('heading', { name: section, exact: true })).toBeVisible();
  }
  // No widget of the sheet is refused.
  await expect(page.getByText('This widget cannot be shown.')).toHaveCount(0);
}

/** questions gives the sheet's questions: the list after its Questions heading. */
export const questions = (page: Page) => page.locator('h3:text-is("Questions") + ol > li');

/** The lab widgets of the sheet: FEC or channel labs, in order. */
export const labWidget = (page: Page, lab: 'Sliding-window FEC lab' | 'Channel lab') =>
  page.getByRole('figure', { name: `${lab}, preset by the sheet` });

/** A run widget of the sheet, by its reference run's id. */
export const runWidget = (page: Page, id: string) =>
  page.getByRole('figure', { name: `A run of ${reference(id).lab}` }).filter({ has: page.locator(`[data-reference="${id}"]`) });

/** expectReference checks that a run widget shows its reference run's figures as shipped. */
export async function expectReference(widget: Locator, id: string) {
  const run = reference(id);
  const section = widget.getByRole('region', { name: `Reference run ${run.run_id}, shipped with the sheet` });
  await expect(section).toBeVisible();
  await expect(widget.getByText(run.set.length > 0 ? run.set[0] : run.lab).first()).toBeVisible();
  await expect(widget.getByText(/^Running it needs the satlab backend/)).toBeVisible();
  const rows = section.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(run.result.flows.length);
  for (const [index, flow] of run.result.flows.entries()) {
    await expect(rows.nth(index).locator('td').nth(1)).toHaveText((flow.download_time_s ?? 0).toFixed(2));
    await expect(rows.nth(index).locator('td').nth(2)).toHaveText((flow.goodput_mbps ?? 0).toFixed(2));
  }
  // The console's charts of the run: goodput, cwnd, RTT, queues, drops (and FEC with a tunnel).
  await expect(section.getByRole('img')).toHaveCount(run.scenario.tunnel ? 6 : 5);
}

/** expectPrintable emulates print: no header, no control of any widget, the text and the charts still there. */
export async function expectPrintable(page: Page) {
  const sheet = page.getByRole('article');
  // On screen there are controls to hide: the print button at least.
  await expect(sheet.getByRole('button').first()).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Labs' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print this sheet' })).toBeHidden();
  for (const control of ['button', 'textbox', 'spinbutton', 'combobox'] as const) {
    await expect(sheet.getByRole(control)).toHaveCount(0);
  }
  await expect(questions(page).first()).toBeVisible();
  for (const caption of await sheet.locator('figcaption').all()) await expect(caption).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
}
