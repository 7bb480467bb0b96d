// A picked folder of 2,000 small run files (one OpenAI-format run each, as
// a folder of evaluation results is laid out) opens as one trace of runs,
// on its runs table: every run has a row, in the files' order, each the
// file's own run; the rows are virtualised; opening a row shows that run.
// How the page reads the folder is checked by its structure, not by the
// clock (the host is shared): the page never asks a picked file its size
// nor posts the Files to the worker (each is a synchronous round trip to
// the browser's file store: seconds for 10,000), and answers while it reads.
// Dropped, the folder opens the same way. A folder of many files that do
// not read as one trace falls back to one trace per file.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openViewer, artifacts } from './helpers.mjs';
import { RUN_FILES_MIN } from '../../www/viewer/sources.js';

const FILES = 2_000;
const DIR = join(artifacts, 'evals');
const name = (i) => `case-${String(i).padStart(4, '0')}`;

/** Run `i`: an id, a model, a task and `i % 4 + 2` messages (so each run's event count says which run it is). */
function run(i) {
  const messages = [{ role: 'user', content: `question ${i}` }];
  for (let k = 0; k < i % 4; k++) messages.push({ role: k % 2 ? 'user' : 'assistant', content: `turn ${k} of ${i}` });
  messages.push({ role: 'assistant', content: `answer ${i}` });
  return { id: name(i), messages, metadata: { model: i % 2 ? 'model-a' : 'model-b', task: `task ${i}` } };
}

let env;
before(async () => {
  env = await launch();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  // Written in reverse: the page orders them by path.
  for (let i = FILES - 1; i >= 0; i--) writeFileSync(join(DIR, `${name(i)}.json`), `${JSON.stringify(run(i))}\n`);
  writeFileSync(join(DIR, 'README.txt'), 'not a trace');
});
after(async () => {
  await env?.close();
  rmSync(DIR, { recursive: true, force: true });
});

/**
 * Installed before the page's scripts: counts the picked files asked their
 * size on the page's thread and the File objects posted to the worker.
 */
function watchFiles() {
  const w = (window.__files = { sizeAsked: 0, posted: 0, largestPost: 0 });
  const size = Object.getOwnPropertyDescriptor(Blob.prototype, 'size');
  Object.defineProperty(Blob.prototype, 'size', {
    configurable: true,
    get() {
      if (this instanceof File && this.webkitRelativePath) w.sizeAsked++;
      return size.get.call(this);
    },
  });
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    let files = 0;
    JSON.stringify(message, (k, v) => (v instanceof File ? (files++, null) : v));
    w.posted += files;
    w.largestPost = Math.max(w.largestPost, files);
    return post.call(this, message, ...rest);
  };
}

const cells = (page) => page.$$eval('#runs-list .vrow:not(.loading) .runs-row', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));

test(`a folder of ${FILES.toLocaleString('en-US')} run files opens as one trace of runs, on its runs table`, async () => {
  const { page, context, errors } = await openViewer(env, { initScript: watchFiles });
  await page.setInputFiles('#folder-input', DIR);
  // The page answers while it reads and parses (its reads are awaited, not a loop that holds it).
  const answered = await page.evaluate(() => document.querySelector('#status').textContent);
  assert.equal(typeof answered, 'string');
  await page.waitForFunction((n) => document.querySelector('#runs-count')?.textContent.startsWith(`${n} of ${n} runs`), FILES.toLocaleString('en-US'), { timeout: 120_000 });
  await page.waitForSelector('#runs-list .vrow:not(.loading)');

  // One trace, named by its folder, no file switcher; README.txt skipped.
  const status = await page.textContent('#status');
  assert.equal(status, `Loaded evals (${FILES.toLocaleString('en-US')} run files) · skipped 1 file that is not a trace`);
  assert.equal(await page.evaluate(() => window.__viewer.state.files.length), 1);
  assert.equal(await page.isVisible('#file-switcher'), false);
  assert.equal(await page.textContent('[data-fact="format"]'), 'openai');
  assert.equal(await page.textContent('[data-fact="runs"]'), String(FILES));
  assert.equal(await page.textContent('[data-fact="errors"]'), '0');
  // It opened on the runs table.
  assert.equal(await page.getAttribute('#tab-runs', 'aria-selected'), 'true');

  // Virtualised: only the visible rows exist. Each row is its file's run, in path order.
  assert.ok((await page.locator('#runs-list .vrow').count()) < 80);
  const check = (rows) => {
    assert.ok(rows.length > 10);
    for (const [id, model, events] of rows) {
      const i = Number(id.slice('case-'.length));
      assert.equal(id, name(i));
      assert.deepEqual([model, Number(events)], [run(i).metadata.model, run(i).messages.length], id);
    }
  };
  const top = await cells(page);
  assert.equal(top[0][0], name(0));
  check(top);
  await page.evaluate(() => {
    const l = document.getElementById('runs-list');
    l.scrollTop = l.scrollHeight;
  });
  await page.waitForFunction((last) => [...document.querySelectorAll('#runs-list .vrow:not(.loading) .runs-row')].some((r) => r.firstChild.textContent === last), name(FILES - 1));
  check(await cells(page));
  assert.ok((await page.locator('#runs-list .vrow').count()) < 80);

  // How it was read: no picked file asked its size here, no File posted to the worker.
  const files = await page.evaluate(() => window.__files);
  assert.deepEqual(files, { sizeAsked: 0, posted: 0, largestPost: 0 });
  await page.screenshot({ path: join(artifacts, 'runs-folder.png') });

  // Opening a row shows that run.
  const row = page.locator('#runs-list .runs-row', { hasText: name(FILES - 2) });
  await row.click();
  await page.waitForFunction(() => window.__viewer.state.run !== null);
  assert.equal(await page.evaluate(() => window.__viewer.state.run), FILES - 2);
  assert.equal(await page.getAttribute('#tab-events', 'aria-selected'), 'true');
  await page.waitForFunction((n) => document.querySelector('#match-count')?.textContent.startsWith(`${n} of `) && !document.querySelector('#event-list .vrow.loading'), run(FILES - 2).messages.length);
  assert.match(await page.textContent('#event-list'), new RegExp(`question ${FILES - 2}\\b`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('dropped on the page, the same folder opens the same way', async () => {
  const { page, context, errors } = await openViewer(env, { initScript: watchFiles });
  // A real drop of the folder: CDP's drag events carry its path, and the page walks its entries.
  const cdp = await context.newCDPSession(page);
  const data = { items: [], files: [DIR], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: 600, y: 400, data });
  await page.waitForFunction((n) => document.querySelector('#runs-count')?.textContent.startsWith(`${n} of ${n} runs`), FILES.toLocaleString('en-US'), { timeout: 120_000 });
  assert.equal(await page.textContent('#status'), `Loaded evals (${FILES.toLocaleString('en-US')} run files) · skipped 1 file that is not a trace`);
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  assert.equal((await cells(page))[0][0], name(0));
  assert.deepEqual(await page.evaluate(() => window.__files), { sizeAsked: 0, posted: 0, largestPost: 0 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('many files that do not read as one trace open one trace per file, saying why', async () => {
  const dir = join(artifacts, 'not-runs');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Empty files: together they are no trace at all.
  for (let i = 0; i < RUN_FILES_MIN; i++) writeFileSync(join(dir, `${name(i)}.json`), '');
  const { page, context } = await openViewer(env);
  await page.setInputFiles('#folder-input', dir);
  await page.waitForFunction((n) => document.querySelectorAll('#file-switcher option').length === n, RUN_FILES_MIN, { timeout: 60_000 });
  // The first file alone is shown, and says what is wrong with it.
  await page.waitForSelector('#load-error:not([hidden])');
  assert.match(await page.textContent('#load-error'), new RegExp(`Could not read not-runs/${name(0)}\\.json`));
  assert.equal(await page.evaluate(() => window.__viewer.state.files.length), RUN_FILES_MIN);
  assert.deepEqual(await page.evaluate(() => window.__viewer.state.files.slice(0, 2).map((f) => f.path)), [`not-runs/${name(0)}.json`, `not-runs/${name(1)}.json`]);
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});
