// make bench-frontend: the channel lab's Monte-Carlo measured where it runs, in headless Chromium.
// For each channel preset it opens the built site (dist/, served as the end-to-end tests serve it),
// starts a curve of 10^6 sources per k and prints one JSON line: the packets per second the Web
// Workers (one per core) push through encoder, channel and decoder (wall clock from the request to
// the last report, as the page shows it, and per CPU-second of this process and its children, the
// browser among them: a figure a busy machine distorts less), how long the page's main thread was
// ever unavailable meanwhile (Long Tasks API, and the largest lateness of a 10 ms timer), the
// longest time a keystroke typed meanwhile took to be painted (e2e/keystroke-latency.mjs), and the
// machine's load average, which every wall-clock figure depends on.
// Usage: node bench/frontend.bench.mjs   (after npm run build; CHROMIUM_PATH as for the tests)
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { keystrokeLatencies, watchKeystrokes } from '../e2e/keystroke-latency.mjs';

const sourcesPerK = 1_000_000;
const ks = [2, 5, 10];
const z = 100;
const presets = ['optical', 'dvb-train', 'wifi'];

/** cpuSeconds is the CPU time (user + system) of a process and all its descendants, from /proc. */
function cpuSeconds(rootPid) {
  const stats = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        // Fields after the command name, which sits in parentheses: ppid is the 2nd, utime and stime the 12th and 13th.
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return [];
      }
    });
  const tree = new Set([rootPid]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const stat of stats) {
      if (tree.has(stat.ppid) && !tree.has(stat.pid)) {
        tree.add(stat.pid);
        grown = true;
      }
    }
  }
  return stats.filter((stat) => tree.has(stat.pid)).reduce((total, stat) => total + stat.ticks, 0) / 100;
}

const port = await new Promise((resolve, reject) => {
  const server = createServer().once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const server = spawn(process.execPath, [new URL('../e2e/static-server.mjs', import.meta.url).pathname, String(port)], { stdio: 'inherit' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const base = `http://127.0.0.1:${port}/labs/`;
  for (let attempt = 0; ; attempt += 1) {
    if (await fetch(base).then((response) => response.ok, () => false)) break;
    if (attempt > 100) throw new Error(`the static server did not answer on ${base}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.addInitScript(() => {
    const watch = { longTasks: [], heartbeatGapMs: 0, last: performance.now() };
    window.__mainThread = watch;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) watch.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    setInterval(() => {
      const now = performance.now();
      watch.heartbeatGapMs = Math.max(watch.heartbeatGapMs, now - watch.last - 10);
      watch.last = now;
    }, 10);
  });
  await page.addInitScript(watchKeystrokes);
  const browserVersion = browser.version();
  for (const preset of presets) {
    await page.goto(`${base}?lab=channel&packets=20000&z=${z}&ks=${ks.join(',')}&sources=1000`);
    const form = page.getByRole('form', { name: 'Channel lab settings' });
    await form.getByLabel('Preset').selectOption(preset);
    const status = page.getByRole('status').filter({ hasText: /^Done: 1,000 source packets per k/ });
    await status.waitFor({ timeout: 60_000 });
    // From here on, only the computation: the page is loaded and the codec compiled.
    await page.evaluate(() => {
      window.__mainThread.longTasks = [];
      window.__mainThread.heartbeatGapMs = 0;
      window.__mainThread.last = performance.now();
    });
    const loadBefore = loadavg()[0];
    const cpuBefore = cpuSeconds(process.pid);
    await form.getByLabel('Source packets per k').fill(String(sourcesPerK));
    const done = page.getByRole('status').filter({ hasText: /^Done: 1,000,000 source packets per k/ });
    await done.waitFor({ timeout: 600_000 });
    const cpuUsed = cpuSeconds(process.pid) - cpuBefore;
    const packets = Number(await done.getAttribute('data-packets'));
    const text = (await done.textContent()) ?? '';
    const packetsPerSecond = Number(text.match(/([\d,]+) packets\/s/)?.[1].replaceAll(',', ''));
    const workers = Number(text.match(/in (\d+) Web Workers/)?.[1] ?? 1);
    const watch = await page.evaluate(() => window.__mainThread);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'channel_lab_monte_carlo',
        runtime: `chromium ${browserVersion}, Web Worker`,
        channel: preset,
        ks,
        z,
        sources_per_k: sourcesPerK,
        workers,
        packets,
        packets_per_s: packetsPerSecond,
        packets_per_cpu_s: Math.round(packets / cpuUsed),
        longest_long_task_ms: Math.round(Math.max(0, ...watch.longTasks)),
        long_tasks: watch.longTasks.length,
        longest_timer_lateness_ms: Math.round(watch.heartbeatGapMs),
        load_average_1m: Number(((loadBefore + loadavg()[0]) / 2).toFixed(2)),
      })}\n`,
    );
  }

  // Keystrokes while a curve computes, as a person types (e2e/channel-lab.spec.ts asserts each
  // under 100 ms): 10^6 sources for each of 30 values of k keep every core busy for seconds.
  await page.goto(`${base}?lab=channel&sources=${sourcesPerK}&ks=1-30&packets=20000`);
  const computing = page.getByRole('status').filter({ hasText: /^Computing… / });
  await computing.waitFor();
  await page.waitForFunction(() => document.querySelector('[role=status][data-packets]:not([data-packets="0"])'));
  await page.evaluate(() => {
    window.__mainThread.longTasks = [];
    performance.clearMeasures('keystroke');
  });
  const loadBefore = loadavg()[0];
  await page.getByRole('form', { name: 'Channel lab settings' }).getByLabel('Packets per row').focus();
  const keystrokes = 16;
  for (let typed = 0; typed < keystrokes; typed += 1) {
    await page.keyboard.press(typed % 2 === 0 ? 'ArrowUp' : 'ArrowDown');
    // One at a time: each is measured alone, not queued behind the one before.
    await page.waitForFunction((count) => performance.getEntriesByName('keystroke').length === count, typed + 1);
  }
  const stillComputing = await computing.isVisible();
  const latencies = await page.evaluate(keystrokeLatencies);
  const longTasks = await page.evaluate(() => window.__mainThread.longTasks);
  await page.getByRole('button', { name: 'Stop' }).click();
  process.stdout.write(
    `${JSON.stringify({
      bench: 'channel_lab_keystrokes',
      runtime: `chromium ${browserVersion}`,
      sources_per_k: sourcesPerK,
      ks: '1-30',
      keystrokes: latencies.length,
      while_computing: stillComputing,
      longest_keystroke_ms: Math.round(Math.max(...latencies)),
      median_keystroke_ms: Math.round(latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)]),
      longest_long_task_ms: Math.round(Math.max(0, ...longTasks)),
      long_tasks: longTasks.length,
      load_average_1m: Number(((loadBefore + loadavg()[0]) / 2).toFixed(2)),
    })}\n`,
  );
} finally {
  await browser.close();
  server.kill();
}
