import { expect, test } from './fixtures';
import { download, expectPng, menuButton, svgFacts } from './figures';

// Every chart has a Download menu: SVG and PNG of it as a figure (a column wide, legend and
// caption, styles inline) and CSV of its data. Here on the browser labs and the Studies page,
// which need no backend.
test.use({ expectedFailures: [/\/labs\/api\//] });

const accent = '#0b5cad';
const lost = '#c62828';

test('the residual-loss curve downloads as a standalone SVG, a 300 dpi PNG and its CSV, from a keyboard menu', async ({ page }) => {
  await page.goto('./?lab=channel&sources=2000');
  await expect(page.getByRole('status').filter({ hasText: /^Done: 2,000 source packets per k/ })).toBeVisible({ timeout: 60_000 });
  const title = 'Residual loss after S(k,100)';

  // The menu button: ↓ opens it on its first format, Escape closes it back onto the button.
  const button = menuButton(page, title);
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await button.focus();
  await page.keyboard.press('ArrowDown');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('menu', { name: `Download ${title} as` });
  await expect(menu.getByRole('menuitem')).toHaveText(['SVG', 'PNG', 'CSV']);
  await expect(menu.getByRole('menuitem', { name: 'SVG' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'CSV' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();

  const svg = await download(page, button, 'SVG');
  expect(svg.name).toMatch(/^satlab-residual-loss-after-s-k-100-channel-lab-gilbert-elliott-per-time-step-seed-1-.*\.svg$/);
  const facts = await svgFacts(page, svg.bytes.toString('utf8'), [accent, lost]);
  expect(facts.error).toBeNull();
  expect(facts.widthPt).toBe(252);
  expect(facts.texts).toEqual(expect.arrayContaining([title, 'k, source packets per repair', 'Sources lost after FEC', 'lost by the channel']));
  // The caption: the channel with its seed, the code and the Monte-Carlo.
  expect(facts.texts.join(' ')).toMatch(/satlab channel lab: Gilbert-Elliott per time step \(seed 1, .*S\(k,100\) by Monte-Carlo, 2,000 source packets per k/);
  expect(facts.texts.filter((text) => text.endsWith(' %')).length).toBeGreaterThan(2);
  // The curve and the channel's line, drawn in the page's colours with no style sheet.
  expect(facts.paths).toBeGreaterThanOrEqual(2);
  expect(facts.colours.sort()).toEqual([accent, lost].sort());

  const png = await download(page, button, 'PNG');
  expect(png.name).toBe(svg.name.replace(/\.svg$/, '.png'));
  await expectPng(page, png.bytes, facts.widthPt);

  const csv = (await download(page, button, 'CSV')).bytes.toString('utf8').split('\r\n');
  expect(csv[0]).toBe(
    'k (source packets per repair),Residual loss (%),"Residual loss, 95 % interval low (%)","Residual loss, 95 % interval high (%)",Channel loss (%),Sources counted (packets)',
  );
  expect(csv.slice(1, -1).map((line) => line.split(',')[0])).toEqual(['1', '2', '3', '4', '5', '6', '8', '10', '15', '20']);
});

test('the burst histogram and the loss raster download as figures with their axis titles and legend', async ({ page }) => {
  await page.goto('./?lab=channel&sources=2000&packets=20000');
  const histogram = await download(page, menuButton(page, 'Burst lengths'), 'SVG');
  const bars = await svgFacts(page, histogram.bytes.toString('utf8'), [accent]);
  expect(bars.error).toBeNull();
  expect(bars.texts).toEqual(expect.arrayContaining(['Burst lengths', 'Burst length, packets lost in a row', 'Bursts']));
  expect(bars.texts.join(' ')).toContain('20,000 packets drawn');
  expect(bars.colours).toEqual([accent]);
  await expectPng(page, (await download(page, menuButton(page, 'Burst lengths'), 'PNG')).bytes, bars.widthPt);

  const raster = await download(page, menuButton(page, 'Losses over time, a row every 1,000 packets'), 'SVG');
  const rows = await svgFacts(page, raster.bytes.toString('utf8'), [lost]);
  expect(rows.error).toBeNull();
  expect(rows.texts).toEqual(expect.arrayContaining(['+0 ms', '0 ms', 'lost', 'received']));
  expect(rows.colours).toEqual([lost]);
  const csv = (await download(page, menuButton(page, 'Losses over time, a row every 1,000 packets'), 'CSV')).bytes.toString('utf8').split('\r\n');
  expect(csv[0]).toBe('Packet (index in send order),Sent at (ms),Lost (1 or 0)');
  expect(csv).toHaveLength(20_000 + 2);
});

test("a study's box plot downloads with the published median in its legend and the study in its caption", async ({ page }) => {
  await page.goto('./?lab=studies&study=petrou2022');
  const report = page.getByRole('region', { name: 'Report shipped with the recipe' });
  // A long study folds its experiments: open each, as a reader would.
  for (const folded of await report.locator('details.study-experiment:not([open]) > summary').all()) await folded.click();
  const plot = report.locator('figure.box-plot').filter({ has: page.getByRole('img', { name: /published median/ }) }).first();
  await expect(plot).toBeVisible();
  const axisTitles = await plot.locator('svg.chart .axis-title').allTextContents();
  expect(axisTitles).toHaveLength(2);
  const button = plot.getByRole('button', { name: /^Download: / });
  const svg = await download(page, button, 'SVG');
  const facts = await svgFacts(page, svg.bytes.toString('utf8'), [accent, lost]);
  expect(facts.error).toBeNull();
  expect(facts.widthPt).toBeGreaterThanOrEqual(252);
  expect(facts.texts).toEqual(expect.arrayContaining([...axisTitles, 'quartiles, median', 'Tukey whiskers', 'a run', 'published median']));
  expect(facts.texts.join(' ')).toMatch(/satlab study petrou2022: report of \d{4}-\d\d-\d\d \(satlab /);
  expect(facts.colours.sort()).toEqual([accent, lost].sort());
  await expectPng(page, (await download(page, button, 'PNG')).bytes, facts.widthPt);
  const csv = (await download(page, button, 'CSV')).bytes.toString('utf8').split('\r\n');
  const unit = axisTitles[1].replace(/^(.*), ([^,]+)$/, '$1 ($2)');
  expect(csv[0]).toBe(`${axisTitles[0]},Mark,${unit},About`);
  expect(csv.some((line) => line.includes(',published median,'))).toBe(true);
});

test("the FEC lab's time line downloads as a figure with its row labels, legend and run", async ({ page }) => {
  // 160 bytes in 8-byte symbols through S(4,12), Bernoulli 20 %, seed 32: 20 sources, 5 repairs, 4 sources lost and rebuilt.
  const text =
    'Sliding-window FEC over a geostationary link: every repair packet mixes the last z source packets, ' +
    'so a lost packet is rebuilt as soon as enough repairs arrive.';
  await page.goto(`./?lab=fec&k=4&z=12&kind=bernoulli&loss=0.2&seed=32&text=${encodeURIComponent(text)}`);
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(page.getByText('Packet 25 of 25')).toBeVisible();
  const button = menuButton(page, 'Time line of the packets');
  const svg = await download(page, button, 'SVG');
  const received = '#37474f';
  const rebuilt = '#1b7f3a';
  const facts = await svgFacts(page, svg.bytes.toString('utf8'), [received, rebuilt, lost]);
  expect(facts.error).toBeNull();
  expect(facts.texts).toEqual(
    expect.arrayContaining(['Sent', 'Channel', 'Receiver', 'Rebuilt', 'Repair windows', 'Source packet (ESI)', 'Rebuilt by the decoder', '✕']),
  );
  expect(facts.texts.join(' ')).toContain('satlab FEC lab: S(4,12), Bernoulli (independent losses) (seed 32, loss 0.2), a packet every');
  expect(facts.texts.join(' ')).toContain('25 of 25 packets sent');
  expect(facts.colours.sort()).toEqual([received, rebuilt, lost].sort());
  await expectPng(page, (await download(page, button, 'PNG')).bytes, facts.widthPt);
  const csv = (await download(page, button, 'CSV')).bytes.toString('utf8').split('\r\n');
  expect(csv).toHaveLength(25 + 2);
  expect(csv.filter((line) => /,source,\d+,1,,,rebuilt,\d+,$/.test(line))).toHaveLength(4);
});
