#!/usr/bin/env node
// A picked folder of many small run files in headless Chromium (issue #21's
// row: 10,000 files of one run each, 100 MB together, runs table filled in
// ≤ 3 s with no main-thread task over 100 ms). The folder is generated once
// (scripts/bench/gen.mjs --files, cached in target/bench-data) and given to
// the page's own folder input (webkitdirectory: Chromium delivers every file
// with its webkitRelativePath). The clock starts at the input's `change`
// event and stops at the first animation frame after the runs table (the
// view such a folder opens on) shows rows and its count names every run.
// Long tasks come from the Long Tasks API (50 ms or more); the task that
// dispatches `change` begins with the browser building the FileList (its
// own work, seconds for 10,000 files under playwright): only its part after
// `change` counts as the page's, its whole length is printed apart. The
// target is absolute: seconds and the longest task are printed, not a ratio.
//
//   node scripts/bench/folder.mjs [--json] [--runs N] [--files 10000] [--size 100MB] [--via input|drop]
//
// `--via drop` drops the folder on the page instead (CDP drag events carrying its path; the
// clock starts at the `drop` event, and the page walks the folder's entries itself).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openViewer, root } from '../../tests/browser/helpers.mjs';
import { ensureFolder, parseSize } from './gen.mjs';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Installed before the page's scripts: long tasks, the folder's `change`, the filled runs table. */
function instrument() {
  const bench = (window.__bench = { longTasks: [], start: null, shown: null, table: null });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.noLongTaskApi = true;
  }
  document.addEventListener('change', (e) => {
    if (e.target?.id?.endsWith('folder-input') && bench.start === null) bench.start = performance.now();
  }, true);
  document.addEventListener('drop', () => {
    if (bench.start === null) bench.start = performance.now();
  }, true);
  const check = () => {
    if (bench.start === null) return;
    const status = document.querySelector('#status')?.textContent ?? '';
    // The stages the status line names: grouped (reading starts), read (parsing starts), shown.
    if (bench.reading === undefined && /^Reading /.test(status)) bench.reading = performance.now();
    if (bench.parsing === undefined && /^Parsing /.test(status)) bench.parsing = performance.now();
    if (bench.shown === null && /^Loaded /.test(status)) bench.shown = performance.now();
    const count = document.querySelector('[id$="runs-count"]')?.textContent ?? '';
    const m = /^([\d,]+) of ([\d,]+) runs/.exec(count);
    if (bench.table === null && m && m[1] === m[2] && document.querySelector('.runs-list .runs-row')) {
      bench.table = -1;
      requestAnimationFrame(() => (bench.table = performance.now()));
    }
  };
  const watch = () => new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.documentElement) watch();
  else document.addEventListener('DOMContentLoaded', watch);
}

async function measure(env, dir, files, via) {
  const { page, context, errors } = await openViewer(env, { initScript: instrument });
  if (via === 'drop') {
    // A real drop of the folder (CDP's drag events carry its path: webkitGetAsEntry gives the page a directory entry).
    const cdp = await context.newCDPSession(page);
    const data = { items: [], files: [dir], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: 600, y: 400, data });
  } else {
    await page.setInputFiles('#folder-input', dir);
  }
  const done = () => (window.__bench.table ?? -1) > 0 || !!document.querySelector('#load-error:not([hidden])');
  let timedOut = false;
  await page.waitForFunction(done, null, { timeout: 120_000, polling: 100 }).catch(() => (timedOut = true));
  // Trailing work (the rest of the switcher, summaries) before long tasks are read.
  await page.waitForTimeout(1000);
  const b = await page.evaluate(() => window.__bench);
  const state = await page.evaluate(() => ({
    error: document.querySelector('#load-error:not([hidden])')?.textContent.trim() ?? null,
    status: document.querySelector('#status')?.textContent ?? '',
    openFiles: window.__viewer.state.files.length,
    runCount: window.__viewer.state.info?.runCount ?? 0,
    /** The worker's parse of the joined files (the core's parseFiles). */
    parseMs: window.__viewer.state.info?.parseMs ?? null,
    view: window.__viewer.state.view,
  }));
  // The task that dispatches `change` began with the browser building the FileList.
  const during = b.longTasks.filter((t) => t.start + t.duration >= b.start).map((t) => ({ ...t, own: Math.min(t.duration, t.start + t.duration - b.start) }));
  const fileList = during.find((t) => t.start <= b.start);
  await context.close();
  return {
    files,
    picked: b.start !== null,
    shownMs: b.shown === null ? null : b.shown - b.start,
    tableMs: (b.table ?? -1) > 0 ? b.table - b.start : null,
    timedOut,
    groupedMs: b.reading === undefined ? null : b.reading - b.start,
    readMs: b.parsing === undefined ? null : b.parsing - b.start,
    fileListTaskMs: fileList ? fileList.duration - fileList.own : 0,
    longestTaskMs: during.reduce((m, t) => Math.max(m, t.own), 0),
    longTasks: during.filter((t) => t.own >= 50).length,
    /** Each long task: when it started, relative to the `change` event, and how long it ran (ms). */
    longTaskList: during.map((t) => [Math.round(t.start - b.start), Math.round(t.duration)]),

    longTaskApi: !b.noLongTaskApi,
    ...state,
    pageErrors: errors,
  };
}

async function main() {
  const argv = process.argv.slice(2);
  let json = false;
  let runs = 3;
  let files = 10_000;
  let via = 'input';
  let size = parseSize('100MB');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--files') files = Number(argv[++i]);
    else if (argv[i] === '--size') size = parseSize(argv[++i]);
    else if (argv[i] === '--via') via = argv[++i];
    else throw new Error(`unexpected ${argv[i]}`);
  }
  const dir = ensureFolder(process.env.ATV_BENCH_DATA ?? join(root, 'target', 'bench-data'), 'openai', size, files);
  if (!existsSync(join(root, 'www', 'pkg', 'agent_trace_viewer_bg.wasm'))) throw new Error('www/pkg missing: run scripts/build.sh');
  const env = await launch();
  const results = [];
  try {
    for (let i = 0; i < runs; i++) results.push(await measure(env, dir, files, via));
  } finally {
    await env.close();
  }
  const med = (k) => (results.some((r) => r[k] === null) ? null : median(results.map((r) => r[k])));
  const out = { ...results[results.length - 1], groupedMs: med('groupedMs'), readMs: med('readMs'), parseMs: med('parseMs'), fileListTaskMs: med('fileListTaskMs'), shownMs: med('shownMs'), tableMs: med('tableMs'), longestTaskMs: med('longestTaskMs'), samples: results.length, tableRuns: results.map((r) => r.tableMs), longestRuns: results.map((r) => r.longestTaskMs) };
  if (json) console.log(JSON.stringify(out));
  else {
    const s = (ms) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);
    console.log(`folder of ${files} run files, ${via === 'drop' ? 'dropped' : 'picked'} (${(size / 1e6).toFixed(0)} MB): runs table filled ${s(out.tableMs)} (${out.samples} samples: ${out.tableRuns.map(s).join(', ')}; grouped ${s(out.groupedMs)}, read ${s(out.readMs)}, parsed in ${s(out.parseMs)}, trace shown ${s(out.shownMs)}), longest main-thread task of the page ${out.longestTaskMs.toFixed(0)} ms (${out.longTasks} of 50 ms or more; the browser's FileList before \`change\`: ${out.fileListTaskMs.toFixed(0)} ms); ${out.openFiles} file(s) open, ${out.runCount} runs in the one shown${out.error ? `; the page reports: ${out.error}` : ''}`);
  }
}

main().catch((e) => {
  console.error(`folder bench: ${e.message}`);
  process.exit(1);
});
