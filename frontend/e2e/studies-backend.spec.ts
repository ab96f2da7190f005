import type { Study, StudyReport } from '../src/features/studies/api/types';
import { expect, test } from './fixtures';

// Against the real backend (playwright.config.ts starts `satlab serve` on a scratch database): a
// quick run of the Petrou study, narrowed on the page to the two transports without FEC on the
// ideal path: two real 20 MiB downloads over the emulated GEO path, about 20 s each, at once.
// On a loaded host picoquic (in user space) can take minutes or time out: the page must then show
// what the API reports (the failed run counted beside n), so the figures are checked against it.
test.skip(Boolean(process.env.E2E_BACKEND_SKIP), process.env.E2E_BACKEND_SKIP);

const figure = (value: number | null, decimals = 2) => (value === null ? '–' : value.toFixed(decimals));

// FIXME: petrou2022's recipe became experiments (issue 19: Table II's 80 configurations, Table I, the tunnel without FEC) and its metric flow_download_time_s: this spec's counts, labels and columns are the old recipe's; to be rewritten against the new quick run.
test.fixme('starts a quick study run from the page, follows it and shows its report beside the published figures', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./?lab=studies&study=petrou2022');
  await expect(page.getByRole('heading', { name: 'When BBR beats FEC coded CUBIC flows over SATCOM' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Served without the satlab backend' })).toHaveCount(0);

  const form = page.getByRole('form', { name: 'New study run' });
  await expect(form.getByRole('radio', { name: 'Quick' })).toBeChecked();
  await expect(form.getByRole('note')).toContainText('smoke test');
  const tunnels = form.getByRole('group', { name: 'tunnel' });
  await expect(tunnels.getByRole('checkbox', { name: 'S(5,100)' })).toBeChecked();
  await expect(form.getByRole('status')).toHaveText('4 configurations × 1 iteration = 4 runs, 4 at once');
  await tunnels.getByRole('checkbox', { name: 'S(5,100)' }).uncheck();
  await expect(form.getByRole('status')).toHaveText('2 configurations × 1 iteration = 2 runs, 2 at once');
  await form.getByRole('button', { name: 'Start the quick run' }).click();

  // The run is a campaign, followed live; the page's address names it.
  const report = page.getByRole('region', { name: /^Report of study run c[0-9a-f]+$/ });
  await expect(report).toBeVisible();
  const campaignId = (await report.getByRole('heading').first().textContent())?.match(/(c[0-9a-f]+)$/)?.[1] ?? '';
  expect(campaignId).not.toBe('');
  await expect(page).toHaveURL(new RegExp(`[?&]report=${campaignId}`));
  await expect(page.getByRole('button', { name: `Study run ${campaignId}` })).toHaveAttribute('aria-pressed', 'true');
  const progress = report.getByRole('progressbar', { name: 'Study run progress' });
  await expect(progress).toHaveAttribute('aria-valuemax', '2');
  await expect(progress).toHaveAttribute('aria-valuetext', /^2\/2 runs finished: [12] done, [01] failed, 0 running$/, { timeout: 180_000 });
  await expect(report.getByText('done', { exact: true })).toBeVisible();
  await expect(report.getByRole('note').filter({ hasText: 'A quick run: a smoke test' })).toBeVisible();

  // Its report, as the API computes it, in the table: the two configurations run, satlab's median beside the published one.
  const api = (await (await page.request.get(`api/studies/petrou2022/report?campaign=${campaignId}`)).json()) as StudyReport;
  const ran = api.rows.filter((row) => row.statistic === 'median' && row.n + row.failed > 0);
  expect(ran.map((row) => `${row.configuration.channel} ${row.configuration.transport} ${row.configuration.tunnel}`).sort()).toEqual([
    'ideal picoquic-bbr none',
    'ideal tcp-cubic none',
  ]);
  expect(ran.every((row) => row.n + row.failed === 1)).toBe(true);
  const table = report.getByRole('table', { name: "Published figures beside satlab's" });
  for (const row of ran) {
    const name = `ideal · ${row.configuration.transport} · none`;
    const cells = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) }).locator('td');
    await expect(cells.nth(0)).toHaveText(figure(row.published));
    await expect(cells.nth(1)).toHaveText(row.satlab === null ? '–' : `${figure(row.satlab)} [${figure(row.q1)}–${figure(row.q3)}]`);
    await expect(cells.nth(2)).toHaveText(`${row.n}${row.failed > 0 ? ` (${row.failed} failed)` : ''}`);
    await expect(cells.nth(3)).toHaveText(figure(row.ratio, 3));
  }
  await expect(report.getByText(`${api.summary.in_band} of ${api.summary.rows} published figures in band (${api.summary.measured} measured)`)).toBeVisible();
  // One chart (only the transport varies), a box per transport with its published median.
  const box = (transport: string) => {
    const row = ran.find((one) => one.configuration.transport === transport);
    const measured = row?.satlab === null ? 'no values' : String.raw`median [\d.]+ s of 1`;
    return `${transport}: ${measured}, published median ${row?.published?.toFixed(2)} s`;
  };
  await expect(report.getByRole('img', { name: new RegExp(`^Each transport: ${box('tcp-cubic')}; ${box('picoquic-bbr')}\\.$`) })).toBeVisible();
  await page.screenshot({ path: 'test-output/studies-quick-run.png', fullPage: true });

  // The report as CSV from the API: a row per published figure.
  const csv = await page.request.get(await report.getByRole('link', { name: 'Report CSV' }).evaluate((link: HTMLAnchorElement) => link.href));
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split(/\r?\n/);
  expect(lines[0]).toContain('published_download_time_s,satlab_download_time_s');
  expect(lines).toHaveLength(api.rows.length + 1);

  // The shipped report is one choice away, and the run stays listed.
  await page.getByRole('button', { name: 'Shipped with the recipe' }).click();
  await expect(page.getByRole('region', { name: 'Report shipped with the recipe' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Report shipped with the recipe' })).toBeVisible();
  await page.getByRole('button', { name: `Study run ${campaignId}` }).click();
  await expect(page.getByRole('region', { name: `Report of study run ${campaignId}` }).getByText('done', { exact: true })).toBeVisible();
});

// FIXME: petrou2022's recipe became experiments (issue 19: Table II's 80 configurations, Table I, the tunnel without FEC) and its metric flow_download_time_s: this spec's counts, labels and columns are the old recipe's; to be rewritten against the new quick run.
test.fixme('a full run narrowed on the page to one configuration joins the report of every full run', async ({ page }) => {
  test.setTimeout(240_000);
  const study = (await (await page.request.get('api/studies/petrou2022')).json()) as Study;
  await page.goto('./?lab=studies&study=petrou2022');
  const form = page.getByRole('form', { name: 'New study run' });
  await form.getByRole('radio', { name: 'Full' }).check();
  await expect(form.getByRole('note')).toContainText('A full run');
  const configurations = Object.values(study.axes).reduce((product, levels) => product * levels.length, 1);
  await expect(form.getByRole('status')).toHaveText(
    `${configurations} configurations × ${study.iterations} iterations = ${configurations * study.iterations} runs, ${study.parallel} at once`,
  );

  // One configuration, once: the ideal path, CUBIC, no FEC, no Wi-Fi, one flow.
  const kept: Record<string, string> = { channel: 'ideal', wifi: 'none', transport: 'tcp-cubic', flows: '1', tunnel: 'none' };
  for (const [axis, levels] of Object.entries(study.axes)) {
    for (const level of levels.filter((one) => one !== kept[axis])) {
      await form.getByRole('group', { name: axis, exact: true }).getByRole('checkbox', { name: level, exact: true }).uncheck();
    }
  }
  await form.getByLabel('Iterations').fill('1');
  await expect(form.getByRole('status')).toHaveText('1 configuration × 1 iteration = 1 run, 1 at once');
  await form.getByRole('button', { name: 'Start the full run' }).click();
  const report = page.getByRole('region', { name: /^Report of study run c[0-9a-f]+$/ });
  await expect(report.getByRole('progressbar', { name: 'Study run progress' })).toHaveAttribute('aria-valuetext', '1/1 runs finished: 1 done, 0 failed, 0 running', {
    timeout: 180_000,
  });
  await expect(report.getByRole('note').filter({ hasText: 'A quick run' })).toHaveCount(0);

  // Every full run pooled: the API's default report.
  await page.getByRole('button', { name: 'Every full run together' }).click();
  const pooled = page.getByRole('region', { name: 'Report of every full study run' });
  const api = (await (await page.request.get('api/studies/petrou2022/report')).json()) as StudyReport;
  await expect(pooled.getByText(`${api.summary.in_band} of ${api.summary.rows} published figures in band (${api.summary.measured} measured)`)).toBeVisible();
  const row = api.rows.find((one) => one.statistic === 'median' && one.configuration.channel === 'ideal' && one.configuration.transport === 'tcp-cubic' && one.configuration.tunnel === 'none');
  const cells = pooled.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'ideal · tcp-cubic · none', exact: true }) }).locator('td');
  await expect(cells.nth(1)).toHaveText(`${figure(row?.satlab ?? null)} [${figure(row?.q1 ?? null)}–${figure(row?.q3 ?? null)}]`);
  await expect(page).toHaveURL(/[?&]report=full/);
});

test("a quick run of one experiment of a study of several shows each metric satlab measured, with its unit", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./?lab=studies&study=kuhn2021');
  await expect(page.getByRole('heading', { name: 'QUIC for satellite communications', level: 2 })).toBeVisible();
  const form = page.getByRole('form', { name: 'New study run' });
  const experiments = form.getByRole('group', { name: 'experiment', exact: true });
  await expect(experiments.getByRole('checkbox', { name: 'utilisation', exact: true })).toBeChecked();
  await expect(experiments.getByRole('checkbox', { name: 'utilisation-1mbps' })).not.toBeChecked(); // no quick part
  await expect(form.getByRole('status')).toHaveText('3 configurations × 1 iteration = 3 runs, 3 at once');
  for (const name of ['zero-rtt', 'window']) await experiments.getByRole('checkbox', { name, exact: true }).uncheck();
  await expect(form.getByRole('status')).toHaveText('1 configuration × 1 iteration = 1 run, 1 at once');
  await form.getByRole('button', { name: 'Start the quick run' }).click();

  // One picoquic BBR download of 1 MB at 50/25 Mbit/s and 100 ms RTT, reported per metric.
  const report = page.getByRole('region', { name: /^Report of study run c[0-9a-f]+$/ });
  await expect(report.getByRole('progressbar', { name: 'Study run progress' })).toHaveAttribute('aria-valuetext', '1/1 runs finished: 1 done, 0 failed, 0 running', {
    timeout: 120_000,
  });
  const campaignId = (await report.getByRole('heading').first().textContent())?.match(/(c[0-9a-f]+)$/)?.[1] ?? '';
  const api = (await (await page.request.get(`api/studies/kuhn2021/report?campaign=${campaignId}`)).json()) as StudyReport;
  const [entry] = api.configurations;
  expect(entry.configuration).toMatchObject({ experiment: 'utilisation', link: '50/25', rtt: '100 ms', size: '1 MB' });
  const table = report.getByRole('table', { name: "Experiment utilisation: published figures beside satlab's" });
  // A column group per metric satlab measured here, in the study's order, each named with its unit.
  const labels = { download_time_s: 'Download time, s', goodput_mbps: 'Goodput, Mbit/s', link_utilisation_ratio: 'Link utilisation ratio', startup_s: 'Startup, s' };
  const shown = Object.entries(labels)
    .filter(([metric]) => (entry.metrics?.[metric]?.n ?? 0) > 0)
    .map(([, label]) => label);
  await expect(table.locator('tbody tr')).toHaveCount(1); // the report has come
  const headers = await table.getByRole('columnheader').allTextContents();
  expect(headers.slice(1, 1 + shown.length)).toEqual(shown);
  const cells = table.locator('tbody tr').first().locator('td');
  const utilisation = entry.metrics?.link_utilisation_ratio;
  expect(utilisation?.median).toBeGreaterThan(0);
  expect(utilisation?.median).toBeLessThanOrEqual(1);
  // Its group: published (none), satlab's median [IQR], n, ratio, band.
  const group = headers.slice(1).indexOf('Link utilisation ratio');
  await expect(cells.nth(group * 5)).toHaveText('–');
  await expect(cells.nth(group * 5 + 1)).toHaveText(`${figure(utilisation?.median ?? null)} [${figure(utilisation?.q1 ?? null)}–${figure(utilisation?.q3 ?? null)}]`);
  await expect(cells.nth(group * 5 + 2)).toHaveText('1');
  // Its box plot per metric: one box, named by the last axis the configuration has a level of.
  await expect(report.getByRole('img', { name: /^Link utilisation ratio: Each size: 1 MB: median [\d.]+ of 1/ })).toBeVisible();
  await expect(report.getByRole('table', { name: /Experiment zero-rtt/ })).toBeVisible(); // its published medians, not run
  await page.screenshot({ path: 'test-output/studies-kuhn-quick-run.png', fullPage: true });
});
