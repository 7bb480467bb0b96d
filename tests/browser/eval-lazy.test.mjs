// A large Inspect `.eval` (generated: scripts/bench/eval-archive.mjs, a
// real zip of deflated members laid out as inspect_ai writes it) opens
// lazily: the runs table shows every sample from the archive's directory,
// header and summaries, without its samples having been read (the worker
// counts the bytes it read from the file); opening a run reads that sample
// and shows its events, as the whole archive read in Node gives them; a
// search of the samples finds a text only one sample's body holds, and
// opening that run shows the match. Checked by structure, never by the
// clock (the host is shared): scripts/bench/eval-lazy.mjs times it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { launch, openViewer, artifacts, root } from './helpers.mjs';
import { generateEval } from '../../scripts/bench/eval-archive.mjs';

const { parseTrace } = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));

const FILE = join(artifacts, 'lazy-test.eval');
// Above the viewer's default threshold (16 MiB) for lazy opening.
const SIZE = 20_000_000;
const NEEDLE = 'zebra-quartz-needle-7731';
const NEEDLE_RUN = '57_epoch_1';

let env;
let generated;
let full;
before(async () => {
  env = await launch();
  generated = generateEval({ size: SIZE, seed: 7, out: FILE, needles: { [NEEDLE_RUN]: NEEDLE } });
  // The whole archive read at once (the package in Node): what each opened run must equal.
  const trace = parseTrace(readFileSync(FILE));
  full = { runs: trace.runs().map((r) => ({ id: r.id, eventCount: r.eventCount })), rows: trace.runRows() };
  trace.free();
});
after(async () => {
  await env?.close();
  rmSync(FILE, { force: true });
});

const info = (page) => page.evaluate(() => {
  const i = window.__viewer.state.info;
  return i && { runCount: i.runCount, eventCount: i.eventCount, lazy: i.lazy ?? null, runs: i.runs.map((r) => ({ id: r.id, eventCount: r.eventCount, pending: !!r.pendingBody })) };
});
const cells = (page) => page.$$eval('#runs-list .vrow:not(.loading) .runs-row', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
const headers = (page) => page.$$eval('#view-other .runs-header .runs-sort', (bs) => bs.map((b) => b.dataset.column));

test('a large .eval opens lazily on its runs table, every sample listed, no sample read', async () => {
  assert.ok(generated.samples > 100 && generated.bytes > 16 * 1048576, `${generated.samples} samples, ${generated.bytes} bytes`);
  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', FILE);
  const n = generated.samples.toLocaleString('en-US');
  await page.waitForFunction((n) => document.querySelector('#runs-count')?.textContent.startsWith(`${n} of ${n} runs`), n, { timeout: 60_000 });
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  const shown = await info(page);
  assert.ok(shown.lazy, 'opened lazily');
  assert.equal(shown.runCount, generated.samples);
  assert.deepEqual(shown.runs.map((r) => r.id), full.runs.map((r) => r.id), 'the runs in the order and with the ids of the whole read');
  assert.equal(shown.lazy.pendingRuns, generated.samples, 'no sample read at open');
  assert.ok(shown.runs.every((r) => r.pending));
  // The directory, header and summaries only: a small part of the file.
  assert.ok(shown.lazy.bytesRead < generated.bytes / 20, `read ${shown.lazy.bytesRead} of ${generated.bytes} bytes at open`);
  assert.equal(await page.evaluate(() => window.__viewer.state.view), 'runs');
  assert.equal(await page.textContent('[data-fact="layout"]'), 'ZIP archive');
  // The table: scores and tokens from the summaries, events not known yet.
  const cols = await headers(page);
  const rows = await cells(page);
  const at = (row, key) => row[cols.indexOf(key)];
  const first = full.rows[0];
  assert.equal(at(rows[0], 'id'), first.id);
  assert.equal(at(rows[0], 'score:match'), first.scores.match);
  assert.equal(at(rows[0], 'tokens'), first.tokens.toLocaleString('en-US'));
  assert.equal(at(rows[0], 'events'), '…');
  assert.match(await page.textContent('#runs-lazy-note'), /read from the file when opened or searched/);
  await page.screenshot({ path: join(artifacts, 'eval-lazy-runs.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('opening a run reads its sample and shows its events, as the whole archive reads them', async () => {
  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', FILE);
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  const before = await info(page);
  const k = 3;
  await page.click(`#runs-list .runs-row[data-run="${k}"]`);
  await page.waitForFunction((k) => window.__viewer.state.info.runs[k].pendingBody === undefined && window.__viewer.state.run === k, k, { timeout: 30_000 });
  const opened = await info(page);
  assert.equal(opened.runs[k].eventCount, full.runs[k].eventCount, 'the run has the events of the whole read');
  assert.equal(opened.lazy.pendingRuns, generated.samples - 1, 'that sample alone was read');
  assert.ok(opened.lazy.bytesRead > before.lazy.bytesRead);
  const count = `${full.runs[k].eventCount.toLocaleString('en-US')} of ${opened.eventCount.toLocaleString('en-US')} events`;
  await page.waitForFunction((t) => document.querySelector('#match-count')?.textContent === t, count, { timeout: 30_000 });
  assert.ok((await page.$$('#event-list .vrow:not(.loading)')).length > 0);
  // Another run: read in its turn, the first back to its summary.
  await page.selectOption('#run-select', String(k + 1));
  await page.waitForFunction((k) => window.__viewer.state.info.runs[k].pendingBody === undefined, k + 1, { timeout: 30_000 });
  const again = await info(page);
  assert.equal(again.runs[k + 1].eventCount, full.runs[k + 1].eventCount);
  assert.ok(again.runs[k].pending);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a large .eval given as bytes (?url=) opens lazily too: the samples stay deflated', async () => {
  const { page, context, errors } = await openViewer(env, { path: '?url=from-url.eval' });
  // Served by the page's own origin (the CSP's connect-src 'self'), from the generated file.
  await page.route('**/from-url.eval', (route) => route.fulfill({ body: readFileSync(FILE), contentType: 'application/zip' }));
  await page.click('#url-load');
  const n = generated.samples;
  await page.waitForFunction((n) => document.querySelector('#runs-count')?.textContent.startsWith(`${n} of ${n} runs`), n, { timeout: 60_000 });
  const shown = await info(page);
  assert.equal(shown.lazy.pendingRuns, n, 'no sample inflated at open');
  assert.deepEqual(shown.runs.map((r) => r.id), full.runs.map((r) => r.id));
  assert.equal(await page.textContent('[data-fact="layout"]'), 'ZIP archive');
  // A run opens from the bytes as from a dropped file.
  await page.click('#runs-list .runs-row[data-run="2"]');
  await page.waitForFunction(() => window.__viewer.state.info.runs[2].pendingBody === undefined, null, { timeout: 30_000 });
  assert.equal((await info(page)).runs[2].eventCount, full.runs[2].eventCount);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a search of the samples finds a text only one sample body holds', async () => {
  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', FILE);
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  await page.fill('#runs-body-query', NEEDLE);
  await page.click('#runs-body-search');
  await page.waitForFunction(() => /^1 runs match/.test(document.querySelector('#runs-body-status')?.textContent ?? ''), null, { timeout: 60_000 });
  const status = await page.textContent('#runs-body-status');
  assert.match(status, new RegExp(`${generated.samples.toLocaleString('en-US')} samples read`));
  await page.waitForFunction(() => document.querySelector('#runs-count')?.textContent.startsWith('1 of '));
  const rows = await cells(page);
  assert.equal(rows.length, 1);
  assert.equal(rows[0][0], NEEDLE_RUN);
  // The search held no sample: the trace still has them all unread.
  assert.equal((await info(page)).lazy.pendingRuns, generated.samples);
  await page.click('#runs-list .runs-row');
  const k = full.runs.findIndex((r) => r.id === NEEDLE_RUN);
  await page.waitForFunction((k) => window.__viewer.state.info.runs[k].pendingBody === undefined, k, { timeout: 30_000 });
  // The run opens on its matches: the tool message and the tool event.
  await page.waitForFunction(() => /^2 of /.test(document.querySelector('#match-count')?.textContent ?? ''), null, { timeout: 30_000 });
  assert.equal(await page.inputValue('#query'), JSON.stringify(NEEDLE));
  assert.deepEqual(errors, []);
  await context.close();
});
