// The Compare view in Chromium: two runs of a JSON Lines file, the second
// with one more tool call: the inserted step is a gap (two `added` rows),
// not a shift; the deltas mark what differs; the runs are in the hash; a
// click on a side opens that event.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, openViewer, artifacts } from './helpers.mjs';

function run(calls, answer, score) {
  const messages = [{ role: 'user', content: 'fix the bug' }];
  calls.forEach((tool, k) => {
    messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${k}`, type: 'function', function: { name: tool, arguments: '{}' } }] });
    messages.push({ role: 'tool', tool_call_id: `c${k}`, content: `${tool} ok` });
  });
  messages.push({ role: 'assistant', content: answer });
  return JSON.stringify({ messages, metadata: { scores: { pass: score } } });
}

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

test('compare: an inserted step is a gap, deltas marked, runs in the hash, sides open their events', async () => {
  const { page, context, errors } = await openViewer(env);
  const text = `${run(['read', 'edit'], 'done', 0)}\n${run(['read', 'grep', 'edit'], 'all done', 1)}\n`;
  await page.setInputFiles('#file-input', { name: 'two-runs.jsonl', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Loaded two-runs.jsonl'));
  await page.click('#tab-compare');
  await page.waitForSelector('#compare-list .vrow:not(.loading)');
  const changes = await page.$$eval('#compare-list .compare-row', (rows) => rows.map((r) => r.dataset.change));
  assert.deepEqual(changes, ['same', 'same', 'same', 'added', 'added', 'same', 'same', 'changed']);
  assert.match(await page.textContent('#compare-summary'), /^5 same, 1 changed, 0 only left, 2 only right/);
  assert.match(await page.textContent('#compare-deltas tr.differs[data-fact="tool calls"]'), /2\s*3\s*\+1/);
  assert.ok(await page.$('#compare-deltas tr.differs[data-fact="score pass"]'));
  assert.equal(await page.$('#compare-deltas tr.differs[data-fact="failures"]'), null, 'equal facts are not marked');
  await page.screenshot({ path: join(artifacts, 'view-compare.png') });
  // Swap the sides: the same alignment, mirrored; the hash follows.
  await page.selectOption('#compare-left', '1');
  await page.selectOption('#compare-right', '0');
  await page.waitForFunction(() => document.querySelector('#compare-summary').textContent.startsWith('5 same, 1 changed, 2 only left'));
  const params = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  assert.deepEqual([params.get('v'), params.get('v.a'), params.get('v.b')], ['compare', '1', '0']);
  // A side opens its event in the list (the rows follow the summary: they
  // are fetched after it is written).
  await page.waitForSelector('#compare-list .compare-row[data-change="removed"] .compare-side[data-side="left"]');
  const target = await page.$eval('#compare-list .compare-row[data-change="removed"] .compare-side[data-side="left"]', (b) => Number(b.dataset.event));
  await page.click('#compare-list .compare-row[data-change="removed"] .compare-side[data-side="left"]');
  await page.waitForFunction((i) => window.__viewer.state.view === 'events' && window.__viewer.state.selected === i, target);
  assert.deepEqual(errors, []);
  await context.close();
});

test('compare with another file: the right side\'s runs come from it, an inserted step is a gap across the two files', async () => {
  const { page, context, errors } = await openViewer(env);
  // One run per file: the Compare tab is there to compare with another file.
  await page.setInputFiles('#file-input', { name: 'left.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${run(['read', 'edit'], 'done', 0)}\n`) });
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Loaded left.jsonl'));
  await page.click('#tab-compare');
  await page.waitForFunction(() => document.querySelector('#compare-summary').textContent.startsWith('This trace has one run'));
  await page.setInputFiles('#compare-file-input', { name: 'right.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${run(['read', 'grep', 'edit'], 'all done', 1)}\n`) });
  await page.waitForFunction(() => document.querySelector('#compare-summary').textContent.startsWith('5 same'));
  await page.waitForSelector('#compare-list .vrow:not(.loading)');
  const changes = await page.$$eval('#compare-list .compare-row', (rows) => rows.map((r) => r.dataset.change));
  assert.deepEqual(changes, ['same', 'same', 'same', 'added', 'added', 'same', 'same', 'changed']);
  assert.match(await page.textContent('#compare-summary'), /^5 same, 1 changed, 0 only left, 2 only right/);
  assert.match(await page.textContent('#compare-source'), /right side: right\.jsonl \(openai, 1 run\)/);
  assert.match(await page.textContent('#compare-deltas tr.differs[data-fact="tool calls"]'), /2\s*3\s*\+1/);
  // The right side's events are the other file's: shown, not links into this one.
  const rightSides = await page.$$eval('#compare-list .compare-side[data-side="right"]', (els) => els.map((e) => [e.tagName, e.textContent]));
  assert.ok(rightSides.length && rightSides.every(([tag]) => tag === 'SPAN'));
  assert.ok(rightSides.some(([, text]) => text.includes('grep')), 'the inserted call is the other file\'s');
  // The hash names the other file (it cannot reopen it): a reload says so.
  const params = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  assert.deepEqual([params.get('v'), params.get('v.a'), params.get('v.b'), params.get('v.other')], ['compare', '0', '0', 'right.jsonl']);
  await page.screenshot({ path: join(artifacts, 'view-compare-files.png') });
  // Leaving the tab and coming back keeps the other file.
  await page.click('#tab-events');
  await page.click('#tab-compare');
  await page.waitForFunction(() => document.querySelector('#compare-summary').textContent.startsWith('5 same'));
  assert.deepEqual(errors, []);
  await context.close();

  // The link opened later: the file is not in it, only its name, and the view says so.
  const later = await openViewer(env, { path: `#${params}` });
  await later.page.setInputFiles('#file-input', { name: 'left.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${run(['read', 'edit'], 'done', 0)}\n`) });
  await later.page.waitForSelector('#compare-notice:not([hidden])');
  assert.match(await later.page.textContent('#compare-notice'), /compared with run #0 of another file, right\.jsonl, which a link cannot reopen/);
  assert.deepEqual(later.errors, []);
  await later.context.close();
});
