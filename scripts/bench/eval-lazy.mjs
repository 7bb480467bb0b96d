#!/usr/bin/env node
// A large Inspect `.eval` dropped on the page in headless Chromium (issue
// #18's row: a generated 500 MB `.eval` shows its runs table within 2 s).
// The archive is generated once (scripts/bench/eval-archive.mjs, cached in
// target/bench-data) and dropped through CDP's drag events carrying its
// path. The clock starts at the page's `drop` event and stops at the first
// animation frame after the runs table (the view a lazily opened archive
// opens on) shows rows and its count names every run. Long tasks come from
// the Long Tasks API (50 ms or more). Then a run is opened (a click on a
// row: its sample read from the file, the events view filled) and, with
// `--search`, the samples are searched for a word only one of them holds
// (every sample read from the file, one at a time).
//
//   node scripts/bench/eval-lazy.mjs [--json] [--runs 3] [--size 500MB] [--search]

import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { launch, openViewer, root } from '../../tests/browser/helpers.mjs';
import { ensureEval } from './eval-archive.mjs';
import { parseSize } from './gen.mjs';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Installed before the page's scripts: long tasks, the `drop`, the filled runs table. */
function instrument() {
  const bench = (window.__bench = { longTasks: [], start: null, table: null });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.noLongTaskApi = true;
  }
  document.addEventListener('drop', () => {
    if (bench.start === null) bench.start = performance.now();
  }, true);
  const check = () => {
    if (bench.start === null || bench.table !== null) return;
    const count = document.querySelector('[id$="runs-count"]')?.textContent ?? '';
    const m = /^([\d,]+) of ([\d,]+) runs/.exec(count);
    if (m && m[1] === m[2] && document.querySelector('.runs-list .runs-row')) {
      bench.table = -1;
      requestAnimationFrame(() => (bench.table = performance.now()));
    }
  };
  const watch = () => new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.documentElement) watch();
  else document.addEventListener('DOMContentLoaded', watch);
}

async function measure(env, file, search) {
  const { page, context, errors } = await openViewer(env, { initScript: instrument });
  const cdp = await context.newCDPSession(page);
  const data = { items: [], files: [file], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: 600, y: 400, data });
  const done = () => (window.__bench.table ?? -1) > 0 || !!document.querySelector('#load-error:not([hidden])');
  await page.waitForFunction(done, null, { timeout: 120_000, polling: 50 });
  await page.waitForTimeout(500);
  const b = await page.evaluate(() => window.__bench);
  const info = await page.evaluate(() => {
    const i = window.__viewer.state.info;
    return { error: document.querySelector('#load-error:not([hidden])')?.textContent.trim() ?? null, runCount: i?.runCount ?? 0, parseMs: i?.parseMs ?? null, lazy: i?.lazy ?? null, view: window.__viewer.state.view };
  });
  const during = b.longTasks.filter((t) => t.start + t.duration >= b.start);
  // Opening a run: its sample read from the file and its events listed.
  const k = 5;
  const t0 = await page.evaluate(() => performance.now());
  await page.click(`#runs-list .runs-row[data-run="${k}"]`);
  await page.waitForFunction((k) => window.__viewer.state.info.runs[k].pendingBody === undefined && /events$/.test(document.querySelector('#match-count')?.textContent ?? '') && document.querySelector('#event-list .vrow:not(.loading)'), k, { timeout: 60_000, polling: 20 });
  const openMs = (await page.evaluate(() => performance.now())) - t0;
  const opened = await page.evaluate((k) => ({ events: window.__viewer.state.info.runs[k].eventCount, parseMs: window.__viewer.state.info.parseMs }), k);
  let searchMs = null;
  let searchStatus = null;
  if (search) {
    await page.click('[data-view="runs"]');
    await page.waitForSelector('#runs-body-query');
    await page.fill('#runs-body-query', 'traceback');
    const s0 = await page.evaluate(() => performance.now());
    await page.click('#runs-body-search');
    await page.waitForFunction(() => / runs match /.test(document.querySelector('#runs-body-status')?.textContent ?? ''), null, { timeout: 600_000, polling: 100 });
    searchMs = (await page.evaluate(() => performance.now())) - s0;
    searchStatus = await page.textContent('#runs-body-status');
  }
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? null);
  await context.close();
  return {
    tableMs: (b.table ?? -1) > 0 ? b.table - b.start : null,
    longestTaskMs: during.reduce((m, t) => Math.max(m, Math.min(t.duration, t.start + t.duration - b.start)), 0),
    longTasks: during.filter((t) => t.duration >= 50).length,
    longTaskApi: !b.noLongTaskApi,
    openRunMs: openMs,
    openedEvents: opened.events,
    openedParseMs: opened.parseMs,
    searchMs,
    searchStatus,
    pageHeap: heap,
    ...info,
    pageErrors: errors,
  };
}

async function main() {
  const argv = process.argv.slice(2);
  let json = false;
  let runs = 3;
  let search = false;
  let size = parseSize('500MB');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--size') size = parseSize(argv[++i]);
    else if (argv[i] === '--search') search = true;
    else throw new Error(`unexpected ${argv[i]}`);
  }
  if (!existsSync(join(root, 'www', 'pkg', 'agent_trace_viewer_bg.wasm'))) throw new Error('www/pkg missing: run scripts/build.sh');
  const file = ensureEval(process.env.ATV_BENCH_DATA ?? join(root, 'target', 'bench-data'), size);
  const env = await launch();
  const results = [];
  try {
    for (let i = 0; i < runs; i++) results.push(await measure(env, file, search && i === runs - 1));
  } finally {
    await env.close();
  }
  const med = (k) => (results.some((r) => r[k] === null) ? null : median(results.map((r) => r[k])));
  const last = results[results.length - 1];
  const out = { ...last, tableMs: med('tableMs'), longestTaskMs: med('longestTaskMs'), openRunMs: med('openRunMs'), parseMs: med('parseMs'), samples: results.length, tableRuns: results.map((r) => r.tableMs), longestRuns: results.map((r) => r.longestTaskMs), openRuns: results.map((r) => r.openRunMs) };
  if (json) console.log(JSON.stringify(out));
  else {
    const s = (ms) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);
    const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(`${file} (${mb(last.lazy?.fileBytes ?? 0)}) dropped: runs table of ${out.runCount} runs filled ${s(out.tableMs)} (${out.samples} samples: ${out.tableRuns.map(s).join(', ')}; the worker's open ${s(out.parseMs)}, ${mb(last.lazy?.bytesRead ?? 0)} of the file read), longest main-thread task ${out.longestTaskMs.toFixed(0)} ms (${last.longTasks} of 50 ms or more); opening run 5 (${out.openedEvents} events): ${s(out.openRunMs)} (${out.openRuns.map(s).join(', ')})${out.searchMs === null ? '' : `; searching every sample: ${s(out.searchMs)} (${out.searchStatus})`}${out.error ? `; the page reports: ${out.error}` : ''}${out.pageErrors.length ? `; page errors: ${out.pageErrors.join(' | ')}` : ''}`);
  }
}

main().catch((e) => {
  console.error(`eval-lazy bench: ${e.message}`);
  process.exit(1);
});
