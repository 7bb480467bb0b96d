// The runs table in Chromium on a generated Docent collection of 10,000 runs
// (scores, models, a failing tool call every 7th run, an error every 50th):
// every run has a row; sorting by a score, the filter (`metadata.scores.…`),
// an added metadata column and the score summaries agree with what the test
// computes from the data it wrote; sort and filter are in the URL hash and
// come back from it; opening a row shows that run; scrolling, sorting and
// filtering 10,000 runs never block the main thread for over 100 ms.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openViewer, artifacts, root } from './helpers.mjs';

const RUNS = 10_000;
const FILE = join(artifacts, 'runs-10000.json');

/** The collection, and per run what the table must show. */
function collection() {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const fails = i % 7 === 0;
    const messages = [
      { role: 'user', content: `question ${i}` },
      { role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: 'search', arguments: { q: `q${i}` } }] },
      { role: 'tool', content: fails ? 'boom' : 'ok', tool_call_id: `c${i}`, ...(fails ? { error: { message: 'tool failed' } } : {}) },
      { role: 'assistant', content: `answer ${i}` },
    ];
    const metadata = {
      scores: { accuracy: (i * 37) % 101 / 100, correct: i % 3 === 0 },
      model: i % 2 ? 'model-a' : 'model-b',
      task: { difficulty: ['easy', 'medium', 'hard'][i % 3] },
      ...(i % 50 === 0 ? { error: { message: `sandbox ${i} died` } } : {}),
    };
    runs.push({ id: `run-${String(i).padStart(5, '0')}`, metadata, transcripts: { main: { messages } } });
  }
  return runs;
}

let env;
let runs;
before(async () => {
  env = await launch();
  runs = collection();
  writeFileSync(FILE, JSON.stringify(runs));
});
after(async () => {
  await env?.close();
});

function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const cells = (page) => page.$$eval('#runs-list .vrow:not(.loading) .runs-row', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
const header = (page) => page.$$eval('#view-other .runs-head .runs-sort', (bs) => bs.map((b) => b.textContent.replace(/ [▲▼]$/, '')));

test('runs table: 10,000 runs sort, filter, summarise, open, and stay in the hash', async () => {
  const { page, context, errors } = await openViewer(env, { initScript: watchLongTasks });
  await page.setInputFiles('#file-input', FILE);
  await page.waitForFunction((n) => document.querySelector('[data-fact="runs"]')?.textContent === String(n), RUNS, { timeout: 120_000 });
  await page.click('#tab-runs');
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  const t0 = await page.evaluate(() => performance.now());
  assert.match(await page.textContent('#runs-count'), /^10,000 of 10,000 runs/);
  assert.equal(await page.textContent('[data-fact="errors"]'), '0', 'the generated collection is valid Docent');
  assert.deepEqual(await header(page), ['run', 'accuracy', 'correct', 'model', 'events', 'tool calls', 'failures', 'tokens', 'duration', 'error']);
  // Only the visible rows exist.
  assert.ok((await page.locator('#runs-list .vrow').count()) < 80);
  const first = (await cells(page))[0];
  assert.deepEqual(first.slice(0, 8), ['run-00000', '0', 'true', 'model-b', '4', '1', '1', '0']);
  assert.equal(first[9], 'sandbox 0 died');

  // Score summaries over every run.
  const mean = runs.reduce((a, r) => a + r.metadata.scores.accuracy, 0) / RUNS;
  const correct = runs.filter((r) => r.metadata.scores.correct).length;
  const summary = await page.textContent('#runs-summaries [data-score="accuracy"]');
  assert.match(summary, new RegExp(`mean ${Math.round(mean * 1000) / 1000}\\b`));
  assert.ok(await page.$('#runs-summaries [data-score="accuracy"] .score-hist'), 'many distinct values: a histogram');
  assert.match(await page.textContent('#runs-summaries [data-score="correct"]'), new RegExp(`false: ${(RUNS - correct).toLocaleString('en-US')}, true: ${correct.toLocaleString('en-US')}`));

  // Sort by accuracy, highest first (numbers sort descending on the first click).
  await page.click('#view-other .runs-sort[data-column="score:accuracy"]');
  await page.waitForFunction(() => document.querySelector('#view-other .runs-head[aria-sort="descending"]'));
  const best = Math.max(...runs.map((r) => r.metadata.scores.accuracy));
  const firstBest = runs.find((r) => r.metadata.scores.accuracy === best).id;
  assert.deepEqual((await cells(page))[0].slice(0, 2), [firstBest, String(best)]);
  assert.match(await page.evaluate(() => location.hash), /v\.sort=score:accuracy:desc/);

  // Filter with the run query; the summaries follow the filter.
  await page.fill('#runs-query', 'metadata.scores.accuracy:>0.5 metadata.model:model-a');
  const expected = runs.filter((r) => r.metadata.scores.accuracy > 0.5 && r.metadata.model === 'model-a');
  await page.waitForFunction((n) => document.querySelector('#runs-count').textContent.startsWith(`${n.toLocaleString('en-US')} of 10,000 runs match`), expected.length);
  assert.match(await page.textContent('#runs-summaries [data-score="accuracy"]'), new RegExp(`^accuracy ${expected.length.toLocaleString('en-US')} scored`));
  const hashParam = async (key) => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get(key);
  assert.equal(await hashParam('v.q'), 'metadata.scores.accuracy:>0.5 metadata.model:model-a');
  // A bad query says why, and leaves the table as it was.
  await page.fill('#runs-query', 'metadata.scores.accuracy:>');
  await page.waitForSelector('#runs-query-error:not([hidden])');

  await page.fill('#runs-query', 'metadata.scores.accuracy:>0.5 metadata.model:model-a');
  await page.waitForSelector('#runs-query-error', { state: 'hidden' });
  // A metadata column, chosen from the filterable fields.
  await page.selectOption('#runs-add-column', 'metadata.task.difficulty');
  await page.waitForFunction(() => [...document.querySelectorAll('#view-other .runs-sort')].some((b) => b.textContent.startsWith('task.difficulty')));
  const top = (await cells(page))[0];
  const topRun = runs.find((r) => r.id === top[0]);
  assert.equal(top[3], topRun.metadata.task.difficulty);
  await page.screenshot({ path: join(artifacts, 'view-runs.png') });

  // Scroll to the end of all 10,000, then sort by tokens and failures: no long task.
  await page.fill('#runs-query', '');
  await page.waitForFunction(() => document.querySelector('#runs-count').textContent.startsWith('10,000 of 10,000'));
  await page.evaluate(() => {
    const l = document.getElementById('runs-list');
    l.scrollTop = l.scrollHeight;
  });
  await page.waitForFunction(() => [...document.querySelectorAll('#runs-list .vrow:not(.loading)')].some((r) => r.dataset.pos === '9999'));
  await page.click('#view-other .runs-sort[data-column="failures"]');
  await page.waitForFunction(() => document.querySelector('#view-other .runs-head[aria-sort="descending"] [data-column="failures"]'));
  const tasks = (await page.evaluate(() => window.__longTasks)).filter((t) => t.start >= t0);
  assert.ok(tasks.every((t) => t.duration <= 100), `main-thread tasks over 100 ms: ${JSON.stringify(tasks)}`);

  // The hash brings the table back as it was (sort and added column).
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /v=runs/);
  assert.equal(await hashParam('v.cols'), 'metadata.task.difficulty');
  await page.evaluate(() => { location.hash = '#'; });
  await page.waitForFunction(() => !document.querySelector('#tab-runs[aria-selected="true"]'));
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForFunction(() => document.querySelector('#view-other .runs-head[aria-sort="descending"] [data-column="failures"]'));
  assert.ok(await page.$('#view-other .runs-sort[data-column="field:metadata.task.difficulty"]'));

  // Opening a row shows that run in the events view.
  await page.focus('#runs-list');
  await page.evaluate(() => { document.getElementById('runs-list').scrollTop = 0; });
  await page.waitForSelector('#runs-list .vrow[data-pos="0"]:not(.loading)');
  const opened = await page.$eval('#runs-list .vrow[data-pos="0"] .runs-row', (r) => Number(r.dataset.run));
  await page.click('#runs-list .vrow[data-pos="0"]');
  await page.waitForFunction((r) => window.__viewer.state.run === r && window.__viewer.state.view === 'events', opened);
  await page.waitForFunction(() => document.querySelector('#match-count').textContent.startsWith('4 '));
  assert.equal(await page.inputValue('#run-select'), String(opened));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the runs table has a cost column when the trace reports costs, in dollars as the Stats view writes them', async () => {
  const text = readFileSync(join(root, 'tests', 'fixtures', 'langfuse', 'costs.json'), 'utf8');
  const copy = (n) => JSON.parse(text.replaceAll('trace-costs', `trace-costs-${n}`).replaceAll('"c-', `"c${n}-`));
  const bare = { ...copy(3), totalCost: null };
  bare.observations = bare.observations.slice(0, 1);
  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', { name: 'costs.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify([copy(1), copy(2), bare])) });
  await page.waitForFunction(() => document.querySelector('[data-fact="runs"]')?.textContent === '3');
  await page.click('#tab-runs');
  await page.waitForSelector('#runs-list .vrow:not(.loading)');
  const head = await header(page);
  const at = head.indexOf('cost');
  assert.equal(at, head.indexOf('tokens') + 1, `a cost column after tokens: ${head}`);
  const aligned = await page.$$eval('#view-other .runs-head', (hs) => hs.filter((h) => h.textContent.startsWith('cost')).map((h) => h.classList.contains('num')));
  assert.deepEqual(aligned, [true], 'its header right-aligned over its numbers');
  const rows = await cells(page);
  const costs = rows.map((r) => r[at]);
  assert.match(costs[0], /^\$0\.0053[34]$/, 'the reported total ($0.005335), to three significant digits');
  assert.deepEqual(costs, [costs[0], costs[0], ''], 'the same total for the copy; empty where nothing is reported');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the runs table is offered only for traces with more than one run', async () => {
  const { page, context } = await openViewer(env);
  await page.setInputFiles('#file-input', { name: 'one.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(runs.slice(0, 1))) });
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Loaded one.json'));
  assert.equal(await page.$('#tab-runs'), null);
  await context.close();
});
