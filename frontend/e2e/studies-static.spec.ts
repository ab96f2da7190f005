import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { StudyDetail, StudyList, StudyReport } from '../src/features/studies/api/types';
import { comparedText, configurationMetrics } from '../src/features/studies/logic/report';
import { expect, test } from './fixtures';

// The built site on a plain static server, no backend: the Studies page shows the Petrou recipe
// from the build's studies.json. The expected figures come from the report shipped with the
// recipe, so that a new shipped report keeps this test true.
test.use({ expectedFailures: [/\/labs\/api\//] });

const report = JSON.parse(readFileSync(new URL('../../labs/studies/petrou2022/report.json', import.meta.url), 'utf8')) as StudyReport;
const figure = (value: number | null, decimals = 2) => (value === null ? '–' : value.toFixed(decimals));
const label = (configuration: Record<string, string>) => ['channel', 'transport', 'tunnel'].map((axis) => configuration[axis]).join(' · ');

async function openStudies(page: Page) {
  await page.goto('./?lab=studies&study=petrou2022');
  await expect(page.getByRole('link', { name: 'Studies' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'When BBR beats FEC coded CUBIC flows over SATCOM' })).toBeVisible();
}

test("shows the Petrou study, its published figures and the shipped report's numbers without a backend", async ({ page }) => {
  await openStudies(page);
  await expect(page.getByRole('heading', { name: 'Served without the satlab backend' })).toBeVisible();
  await expect(page.getByText('Petrou, Pradas, Royer, Lochin.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What the study found' })).toBeVisible();
  await expect(page.getByText(/FEC never makes it faster/)).toBeVisible();
  await expect(page.getByRole('form', { name: 'New study run' })).toHaveCount(0);

  // Which report this is: shipped with the recipe, when and by what.
  const section = page.getByRole('region', { name: 'Report shipped with the recipe' });
  await expect(section).toBeVisible();
  await expect(section.getByText(`by satlab ${report.satlab}`)).toContainText(report.generated_at.slice(0, 10));
  await expect(section.getByText(new RegExp(`^${report.summary.in_band} of the ${report.summary.measured} published figures? satlab measured (is|are) in band`))).toBeVisible();
  await expect(section.getByRole('note').filter({ hasText: 'A quick run' })).toHaveCount(report.quick ? 1 : 0);

  // An experiment per fold, the first open, each with its table: Table II's single flows first.
  const experiments = (report.axes.experiment ?? []).filter(
    (name) => report.rows.some((row) => row.configuration.experiment === name) || report.configurations.some((entry) => entry.configuration.experiment === name),
  );
  expect(experiments[0]).toBe('one-flow');
  for (const [index, experiment] of experiments.entries()) {
    const fold = section.locator('details.study-experiment').filter({ has: page.getByText(`(${experiment})`, { exact: true }) });
    await expect(fold).toHaveJSProperty('open', index === 0);
    await expect(fold.getByRole('table', { name: `Experiment ${experiment}: published figures beside satlab's`, includeHidden: true })).toHaveCount(1);
  }

  // A line per published figure of the experiment (its spreads after its medians): the study's value
  // beside satlab's median [IQR], n, ratio and verdict, the download time's group of columns first.
  const fold = section.locator('details.study-experiment').filter({ has: page.getByText('(one-flow)', { exact: true }) });
  const table = fold.getByRole('table', { name: "Experiment one-flow: published figures beside satlab's" });
  const rows = report.rows.filter((row) => row.configuration.experiment === 'one-flow');
  await expect(table.locator('tbody tr')).toHaveCount(rows.length);
  for (const [index, row] of rows.entries()) {
    const iqr = row.statistic === 'median' && row.q1 !== null && row.q3 !== null ? ` [${figure(row.q1)}–${figure(row.q3)}]` : '';
    const verdict = row.band === null ? '–' : row.in_band === null ? 'not measured' : row.in_band ? '✓ in band' : '✗ out of band';
    await expect(table.locator('tbody tr').nth(index).locator(':scope > :nth-child(-n+6)')).toHaveText(
      [
        `${label(row.configuration)}${row.statistic === 'median' ? '' : `, ${row.statistic}`}${row.source === 'Table II' ? '' : ` (${row.source})`}`,
        figure(row.published),
        row.satlab === null ? '–' : `${figure(row.satlab)}${iqr}`,
        `${row.n}${row.failed > 0 ? ` (${row.failed} failed)` : ''}`,
        figure(row.ratio, 3),
        verdict,
      ],
      { useInnerText: true },
    );
  }

  // The band and why, as the mark's description, shown on keyboard focus (and hover).
  const judged = rows.findIndex((row) => row.band !== null);
  const mark = table.locator('tbody tr').nth(judged).getByRole('button').first();
  const tip = `Band ${rows[judged].band}: ${rows[judged].band_reason}`;
  await expect(mark).toHaveAccessibleDescription(tip);
  await expect(page.getByRole('tooltip').filter({ hasText: tip })).toBeHidden();
  // The keyboard reaches it from the CSV link within a few stops (the fold's title and the table's scroll box are two).
  await section.getByRole('link', { name: 'Report CSV' }).focus();
  for (let stops = 0; stops < 4 && !(await mark.evaluate((element) => element === document.activeElement)); stops++) {
    await page.keyboard.press('Tab');
  }
  await expect(mark).toBeFocused();
  await expect(page.getByRole('tooltip').filter({ hasText: tip })).toBeVisible();
  await mark.press('Escape');
  await expect(page.getByRole('tooltip').filter({ hasText: tip })).toBeHidden();

  // The download times as a box plot per channel and transport, the published medians drawn on them.
  const oneFlow = report.configurations.filter((entry) => entry.configuration.experiment === 'one-flow');
  const pairs = new Set(oneFlow.map((entry) => label(entry.configuration).split(' · ').slice(0, 2).join(' · ')));
  const charts = fold.getByRole('img', { name: /^Flow download time, s: .*published median/ });
  await expect(charts).toHaveCount(pairs.size);
  await expect(charts.locator('circle.box-point')).toHaveCount(
    oneFlow.reduce((total, entry) => total + configurationMetrics(entry).flow_download_time_s.values.length, 0),
  );

  // Each conclusion, with its verdict and what it compares: ratios, or differences in seconds.
  for (const check of report.checks) {
    const verdict = check.holds === null ? 'not measured' : check.holds ? 'holds' : 'fails';
    const item = section.getByRole('listitem').filter({ hasText: `${check.id}:` });
    await expect(item.locator('.check-verdict')).toHaveText(verdict);
    const ratios = item.getByRole('table', { name: `Comparisons of ${check.id}` });
    await expect(ratios.locator('tbody tr')).toHaveCount(check.comparisons.length);
    await expect(ratios.locator('tbody tr td:nth-child(4)')).toHaveText(check.comparisons.map((comparison) => comparedText(check, comparison)));
  }

  // The shipped report as CSV, made in the page: a header and a row per published figure.
  const csv = await section.getByRole('link', { name: 'Report CSV' }).getAttribute('href');
  const lines = decodeURIComponent(csv?.replace(/^data:text\/csv;charset=utf-8,/, '') ?? '').trim().split('\n');
  expect(lines[0]).toContain('published_flow_download_time_s,satlab_flow_download_time_s');
  expect(lines).toHaveLength(report.rows.length + 1);
  await page.screenshot({ path: 'test-output/studies-static.png', fullPage: true });
});

for (const width of [800, 1920]) {
  test(`is readable at ${width} px: no page-wide scrolling, chart text at least 14 px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 1000 });
    await openStudies(page);
    await expect(page.getByRole('img', { name: /published median/ }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Each text's size on screen: its font size times the SVG's scale.
    const sizes = await page.locator('.study-charts svg.chart').evaluateAll((charts) =>
      charts.flatMap((chart) => {
        const scale = chart.getBoundingClientRect().width / (chart as SVGSVGElement).viewBox.baseVal.width;
        return [...chart.querySelectorAll('text')].map((text) => Number.parseFloat(getComputedStyle(text).fontSize) * scale);
      }),
    );
    expect(sizes.length).toBeGreaterThan(20);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
    await page.screenshot({ path: `test-output/studies-${width}.png`, fullPage: true });
  });
}

const martin = JSON.parse(readFileSync(new URL('../../labs/studies/martin2022/report.json', import.meta.url), 'utf8')) as StudyReport;

/** The static studies.json as built, these studies' shipped reports withheld: how a study shows before its first run. */
async function withoutShippedReports(page: Page, ids: string[]) {
  await page.route('**/studies.json', async (route) => {
    const list = (await (await route.fetch()).json()) as StudyList<StudyDetail>;
    const data = list.data.map((study) => (ids.includes(study.id) ? { ...study, shipped_report: null, has_shipped_report: false } : study));
    await route.fulfill({ json: { ...list, data } });
  });
}

test("shows a study of several experiments: each experiment's published figures in a column per metric, with its unit", async ({ page }) => {
  await withoutShippedReports(page, ['martin2022', 'claypool2021']);
  await page.goto('./?lab=studies&study=martin2022');
  await expect(page.getByRole('heading', { name: 'On the suitability of BBR congestion control for QUIC over GEO SATCOM networks' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Studies' }).getByRole('link', { name: 'QUIC for satellite communications' })).toBeVisible();
  // What satlab runs of the study: its experiments, each by title and name.
  const experiments = page.getByRole('list', { name: 'Experiments' }).getByRole('listitem');
  await expect(experiments).toHaveCount(5);
  await expect(experiments.nth(2)).toHaveText('(3) A second flow joins after 20 s, 120 s in all (latecomers)');
  const section = page.getByRole('region', { name: 'Published figures' });
  await expect(section.getByText('No report yet: the study\'s published figures alone.')).toBeVisible();

  // The two experiments that published figures, each under its title, a table with a column group per metric.
  await expect(section.getByRole('heading', { level: 3, name: /^\(5\) ngtcp2's download beside an ngtcp2 upload/ })).toBeVisible();
  const ngtcp2 = section.getByRole('table', { name: "Experiment upload-ngtcp2: published figures beside satlab's" });
  await expect(ngtcp2.getByRole('columnheader', { name: 'Download goodput, Mbit/s' })).toHaveAttribute('colspan', '5');
  await expect(ngtcp2.getByRole('columnheader', { name: 'download · upload · uplink' })).toBeVisible();
  await expect(ngtcp2.locator('tbody tr')).toHaveCount(18);
  // The 20/2 link, BBRv2 downloading beside a BBRv2 upload: 5.31 Mbit/s (the study's mean), nothing measured yet.
  await expect(ngtcp2.locator('tbody tr').nth(9).locator('th, td')).toHaveText(['ngtcp2-bbr2 · ngtcp2-bbr2 · 2, mean', '5.31', '–', '0', '–', '–'], {
    useInnerText: true,
  });
  const picoquic = section.getByRole('table', { name: "Experiment upload-picoquic: published figures beside satlab's" });
  await expect(picoquic.locator('tbody tr')).toHaveCount(8);
  await expect(picoquic.locator('tbody tr').first().locator('td').first()).toHaveText('18.36');
  await expect(section.getByRole('table', { name: /Experiment bulk/ })).toHaveCount(0);

  // Every conclusion, metrics other than time among them, not measured without a report.
  for (const id of ['bbr-beats-cubic-under-loss-ngtcp2', 'bbr2-fairer-than-bbr1', 'cubic-latecomer-slow', 'picoquic-holds-on-20-2', 'picoquic-fewer-acks']) {
    await expect(section.getByRole('listitem').filter({ hasText: `${id}:` }).locator('.check-verdict')).toHaveText('not measured');
  }
  await page.screenshot({ path: 'test-output/studies-martin.png', fullPage: true });

  // A study that published no figure to compare one to one says so, and lists its conclusions.
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('link', { name: 'Comparison of TCP congestion control performance over a satellite network' }).click();
  await expect(page.getByText('The study published no figure to compare one to one: its conclusions are the checks below.')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'steady-throughputs-similar:' })).toBeVisible();
});

test("shows martin2022's shipped report: every experiment's figures, its summary and each conclusion's verdict", async ({ page }) => {
  await page.goto('./?lab=studies&study=martin2022');
  const section = page.getByRole('region', { name: 'Report shipped with the recipe' });
  await expect(
    section.getByText(`${martin.summary.in_band} of the ${martin.summary.measured} published figures satlab measured are in band`),
  ).toBeVisible();
  // A table per experiment satlab measured, those without published figures too, each folded under its title, the first open.
  for (const [index, experiment] of ['bulk', 'fairness', 'latecomers', 'upload-ngtcp2', 'upload-picoquic'].entries()) {
    const fold = section.locator('details.study-experiment').filter({ has: page.getByText(`(${experiment})`, { exact: true }) });
    await expect(fold).toHaveJSProperty('open', index === 0);
    if (index > 0) await fold.locator('summary').click();
    await expect(section.getByRole('table', { name: `Experiment ${experiment}: published figures beside satlab's` })).toBeVisible();
  }
  // The 20/2 link, BBRv2 downloading beside a BBRv2 upload: the study's mean beside satlab's, n and ratio.
  const row = martin.rows.find(
    (figure) => figure.configuration.download === 'ngtcp2-bbr2' && figure.configuration.upload === 'ngtcp2-bbr2' && figure.configuration.uplink === '2',
  );
  if (!row || row.satlab === null || row.ratio === null) throw new Error('the shipped martin2022 report has no measured ngtcp2-bbr2 · ngtcp2-bbr2 · 2 row');
  const ngtcp2 = section.getByRole('table', { name: "Experiment upload-ngtcp2: published figures beside satlab's" });
  const line = ngtcp2.locator('tbody tr').filter({ hasText: 'ngtcp2-bbr2 · ngtcp2-bbr2 · 2, mean' });
  await expect(line).toContainText(figure(row.published));
  await expect(line).toContainText(figure(row.satlab));
  await expect(line).toContainText(figure(row.ratio, 3));
  for (const check of martin.checks) {
    const verdict = check.holds === null ? 'not measured' : check.holds ? 'holds' : 'fails';
    await expect(section.getByRole('listitem').filter({ hasText: `${check.id}:` }).locator('.check-verdict')).toHaveText(verdict);
  }
});

const shipped = (id: string) => JSON.parse(readFileSync(new URL(`../../labs/studies/${id}/report.json`, import.meta.url), 'utf8')) as StudyReport;

test('a study says what its summary counts, why figures are out of band and checks fail, with its README; its tables fit 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const id of ['claypool2021', 'kuhn2021']) {
    const report = shipped(id);
    await page.goto(`./?lab=studies&study=${id}`);
    const section = page.getByRole('region', { name: 'Report shipped with the recipe' });
    await expect(section.locator('.report-summary')).toBeVisible();
    // Issue 18: Claypool read "0 of 0 published figures in band", Kuhn "0 of 3".
    await expect(section.locator('.report-summary')).not.toContainText('0 of 0');
    if (report.summary.rows === 0) await expect(section.locator('.report-summary')).toHaveText(/^The study published no figure satlab compares one to one/);
    else await expect(section.locator('.report-summary')).toHaveText(new RegExp(`^${report.summary.in_band} of the ${report.summary.measured} published figure`));

    // Every figure out of its band, and every failing check, says why (the recipe's sentence, or where to read on) and links to the README.
    await section.locator('details.study-experiment').evaluateAll((folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
    const outOfBand = await section.getByRole('button', { name: /out of band/ }).count();
    expect(outOfBand).toBe(report.rows.filter((row) => row.in_band === false).length);
    await expect(section.getByRole('list', { name: 'Why figures are out of their band' }).getByRole('listitem')).toHaveCount(outOfBand);
    for (const note of await section.getByRole('list', { name: 'Why figures are out of their band' }).getByRole('listitem').all()) {
      await expect(note.getByRole('link', { name: /README/ })).toHaveCount(1);
    }
    for (const check of report.checks.filter((one) => one.holds === false)) {
      const why = section.getByRole('listitem').filter({ hasText: `${check.id}:` }).locator('.check-why');
      await expect(why).toContainText('Why it fails:');
      await expect(why.getByRole('link')).toHaveCount(1);
    }
    const link = section.locator('.check-why, .band-notes').getByRole('link').first();
    await link.click();
    const readme = page.locator(`details#readme-${id}`);
    await expect(readme).toHaveJSProperty('open', true);
    const target = (await link.getAttribute('href'))?.slice(1) ?? '';
    await expect(page.locator(`[id="${target}"]`)).toBeInViewport();

    // The tables scroll inside their own box, never the page; the configuration stays in view.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    for (const box of await section.locator('.study-table-scroll').all()) {
      const [inner, outer] = await box.evaluate((node) => [node.getBoundingClientRect().right, node.parentElement!.getBoundingClientRect().right]);
      expect(inner).toBeLessThanOrEqual(outer + 1);
      const header = box.locator('tbody th').first();
      const before = (await header.boundingBox())?.x ?? 0;
      await box.evaluate((node) => node.scrollTo({ left: node.scrollWidth }));
      expect(Math.abs(((await header.boundingBox())?.x ?? 0) - before)).toBeLessThan(1);
      // A configuration's name reads on two lines at most (Kuhn's wrapped to four).
      const lineHeight = await header.evaluate((node) => Number.parseFloat(getComputedStyle(node).lineHeight) || 20);
      expect((await header.boundingBox())?.height ?? 0).toBeLessThanOrEqual(2 * lineHeight + 12);
    }
  }
  // A long study folds its experiments: no longer 22,889 px of page.
  await page.goto('./?lab=studies&study=martin2022');
  await expect(page.getByRole('region', { name: 'Report shipped with the recipe' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(12_000);
});
