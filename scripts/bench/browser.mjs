#!/usr/bin/env node
// The viewer in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core): time from a dropped file to the first rows painted, and
// the longest main-thread task during the load; for big files, whether the
// list still scrolls.
//
//   node scripts/bench/browser.mjs [--json] [--runs N] [--via drop|input] FILE...
//
// How a file is "dropped": playwright gives the page a File through a hidden
// <input> that this script adds, and the script dispatches a real `drop`
// event carrying it on the document (the page's drop handler runs as it
// would for a user's drop); `--via input` sets the page's own file input
// instead. The clock starts when the drop (or `change`) event is
// dispatched and stops at the first animation frame after the first event
// row is in the DOM. Long tasks come from the Long Tasks API (tasks of
// 50 ms or more; shorter ones are not reported, so "< 50 ms" means none).
//
// Adapting to a reworked page: the selectors below are the only coupling.

import { existsSync, statSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const SELECTORS = {
  ready: 'body[data-ready="true"]',
  fileInput: '#file-input',
  /** A rendered event row of the virtual list (a row still loading does not count). */
  row: '#event-list .vrow:not(.loading)',
  /** The list's scroll container. */
  list: '#event-list',
  loadError: '#load-error:not([hidden])',
};

/** Installed before the page's scripts: records long tasks and the first row. */
function instrument(rowSelector) {
  const bench = (window.__bench = { longTasks: [], start: null, firstRows: null });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.noLongTaskApi = true;
  }
  const watch = () => {
    const mo = new MutationObserver(() => {
      if (bench.start === null || bench.firstRows !== null) return;
      if (document.querySelector(rowSelector)) {
        bench.firstRows = -1;
        requestAnimationFrame(() => {
          bench.firstRows = performance.now();
        });
      }
    });
    mo.observe(document.documentElement, { childList: true, subtree: true });
  };
  if (document.documentElement) watch();
  else document.addEventListener('DOMContentLoaded', watch);
  document.addEventListener('change', (e) => {
    if (e.target?.id !== 'bench-file' && bench.start === null) bench.start = performance.now();
  }, true);
}

async function measure(browser, server, file, via) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(instrument, SELECTORS.row);
  await page.goto(server.url);
  await page.waitForSelector(SELECTORS.ready, { timeout: 60_000 });
  const bytes = statSync(file).size;
  if (via === 'input') {
    await page.setInputFiles(SELECTORS.fileInput, file);
  } else {
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-file';
      input.hidden = true;
      document.body.append(input);
    });
    await page.setInputFiles('#bench-file', file);
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(document.getElementById('bench-file').files[0]);
      window.__bench.start = performance.now();
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
  }
  const timeout = Math.max(120_000, (bytes / 1e6) * 2_000);
  await page.waitForFunction(() => (window.__bench.firstRows ?? -1) > 0 || !!document.querySelector('#load-error:not([hidden])'), null, { timeout, polling: 100 });
  const loadError = await page.$(SELECTORS.loadError);
  if (loadError) throw new Error(`the page reports: ${(await loadError.textContent()).trim()}`);
  // Let trailing work (summary, diagnostics) finish before reading long tasks.
  await page.waitForTimeout(500);
  const b = await page.evaluate(() => window.__bench);
  const during = b.longTasks.filter((t) => t.start + t.duration >= b.start);
  const out = {
    file: basename(file),
    bytes,
    via,
    firstRowsMs: b.firstRows - b.start,
    longestTaskMs: during.reduce((m, t) => Math.max(m, t.duration), 0),
    longTasks: during.length,
    longTaskApi: !b.noLongTaskApi,
    pageErrors: errors,
  };
  if (bytes >= 500e6 || process.env.ATV_BENCH_SCROLL) out.loadsAndScrolls = await scrolls(page);
  await context.close();
  return out;
}

/** Scrolls the virtual list to the middle and to the end; true when the rows there
 * arrive from the worker (their index says where they are) and the page answers. */
async function scrolls(page) {
  const lastIndex = () =>
    page.evaluate((sel) => {
      const idx = [...document.querySelectorAll(`${sel} .r-index`)].map((e) => Number(e.textContent.slice(1)));
      return idx.length ? Math.max(...idx) : -1;
    }, SELECTORS.row);
  const before = await lastIndex();
  let reached = before;
  for (const at of [0.5, 1]) {
    await page.evaluate(([sel, at]) => {
      const l = document.querySelector(sel);
      l.scrollTop = l.scrollHeight * at;
    }, [SELECTORS.list, at]);
    try {
      await page.waitForFunction(([sel, min]) => [...document.querySelectorAll(`${sel} .r-index`)].some((e) => Number(e.textContent.slice(1)) > min), [SELECTORS.row, reached], { timeout: 30_000 });
    } catch {
      return false;
    }
    reached = await lastIndex();
  }
  const responsive = await Promise.race([page.evaluate(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
  return before >= 0 && reached > before && responsive;
}

async function main() {
  const argv = process.argv.slice(2);
  let json = false;
  let runs = 3;
  let via = 'drop';
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--via') via = argv[++i];
    else files.push(argv[i]);
  }
  if (!files.length) {
    console.error('usage: node scripts/bench/browser.mjs [--json] [--runs N] [--via drop|input] FILE...');
    process.exit(2);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  if (!existsSync(join(root, 'www', 'pkg', 'agent_trace_viewer_bg.wasm'))) throw new Error('www/pkg missing: run scripts/build.sh');
  const server = await startServer(join(root, 'www'), 0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--js-flags=--max-old-space-size=8192'],
  });
  try {
    for (const file of files) {
      const big = statSync(file).size >= 500e6;
      const results = [];
      let error = null;
      for (let i = 0; i < (big ? 1 : runs); i++) {
        try {
          results.push(await measure(browser, server, file, via));
        } catch (e) {
          error = e.message.split('\n')[0];
          break;
        }
      }
      let out;
      if (!results.length) out = { file: basename(file), bytes: statSync(file).size, error };
      else {
        const med = (k) => {
          const s = results.map((r) => r[k]).sort((a, b) => a - b);
          return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        };
        out = { ...results[results.length - 1], firstRowsMs: med('firstRowsMs'), longestTaskMs: med('longestTaskMs'), runs: results.length, firstRowsRuns: results.map((r) => r.firstRowsMs) };
      }
      if (json) console.log(JSON.stringify(out));
      else console.log(out.error ? `${out.file}: ERROR ${out.error}` : `${out.file}: first rows ${out.firstRowsMs.toFixed(0)} ms, longest task ${out.longestTaskMs.toFixed(0)} ms (${out.longTasks} long tasks)${out.loadsAndScrolls === undefined ? '' : `, scrolls: ${out.loadsAndScrolls}`}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`browser bench: ${e.message}`);
  process.exit(1);
});
