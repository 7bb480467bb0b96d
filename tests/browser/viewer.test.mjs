// The viewer page in real headless Chromium (Debian's chromium, driven by
// playwright-core): load a corpus file through the file input, see rows,
// filter, follow a call → result link, stay inert on hostile content, and
// make no request off the page. Screenshots go to test-artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, CSP } from '../../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');
const artifacts = join(root, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let server;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: run scripts/setup.sh`);
  assert.ok(existsSync(join(root, 'www', 'pkg', 'agent_trace_viewer_bg.wasm')), 'www/pkg missing: run scripts/build.sh');
  mkdirSync(artifacts, { recursive: true });
  server = await startServer(join(root, 'www'), 0);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh page with a request log and a dialog trap. */
async function openViewer() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  const dialogs = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, context, requests, dialogs, errors, response };
}

test('loads a corpus file through the file input and shows its events', async () => {
  const { page, context, requests, errors, response } = await openViewer();
  assert.equal(response.headers()['content-security-policy'], CSP);
  const file = join(corpus, 'invariant', 'invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json');
  assert.ok(existsSync(file), `CORPUS MISSING: ${file}`);
  await page.setInputFiles('#file-input', file);
  await page.waitForSelector('#events li.event');
  assert.equal(await page.locator('#events li.event').count(), 44);
  assert.equal(await page.textContent('[data-fact="format"]'), 'openai');
  assert.equal(await page.textContent('[data-fact="events"]'), '44');
  assert.equal(await page.textContent('[data-fact="tool calls"]'), '28');
  assert.equal(await page.textContent('#match-count'), '44 events');
  await page.screenshot({ path: join(artifacts, 'viewer-loaded.png'), fullPage: false });

  // Role filter: only tool results remain.
  await page.selectOption('#role-filter', 'tool');
  await page.waitForFunction(() => document.querySelector('#match-count').textContent.startsWith('28 of'));
  const badges = await page.locator('#events li.event .badge').allTextContents();
  assert.equal(badges.length, 28);
  assert.ok(badges.every((b) => b === 'tool'), badges.join());

  // The tool: term finds the results of that tool's calls.
  await page.fill('#query', 'tool:github-list_gists');
  await page.waitForFunction(() => document.querySelector('#match-count').textContent.startsWith('14 of'));

  // Text filter on top of it.
  await page.fill('#query', '"list_issues"');
  await page.waitForFunction(() => !document.querySelector('#match-count').textContent.startsWith('14 of'));
  const n = await page.locator('#events li.event').count();
  assert.ok(n > 0 && n < 28, `text filter left ${n} rows`);
  await page.screenshot({ path: join(artifacts, 'viewer-filtered.png') });

  // A malformed query is explained inline, with the column.
  await page.fill('#query', 'colour:red');
  await page.waitForSelector('#query-error:not([hidden])');
  assert.match(await page.textContent('#query-error'), /column 1: unknown field `colour:`/);

  // Clear filters and follow a call → result link.
  await page.fill('#query', '');
  await page.selectOption('#role-filter', '');
  await page.waitForFunction(() => document.querySelector('#match-count').textContent === '44 events');
  const link = page.locator('.call a.event-link').first();
  const target = await link.getAttribute('data-event');
  await link.click();
  await page.waitForSelector(`#e-${target}.selected`);
  assert.match(await page.textContent(`#e-${target} .answers`), /← answers #/);

  // Raw JSON of an event is its exact source text.
  await page.locator('#e-0 .event-head button').click();
  const raw = await page.textContent('#e-0 pre.raw');
  assert.equal(JSON.parse(raw).role, 'system');

  const offPage = requests.filter((u) => !u.startsWith(server.url));
  assert.deepEqual(offPage, [], 'no request may leave the page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a file dropped anywhere on the page loads', async () => {
  const { page, context } = await openViewer();
  const file = join(corpus, 'invariant', 'invariantlabs-ai__explorer__tests__data__webarena.jsonl');
  assert.ok(existsSync(file), `CORPUS MISSING: ${file}`);
  const text = readFileSync(file, 'utf8');
  // A real DataTransfer holding a File, dropped on the body as a browser would.
  const dataTransfer = await page.evaluateHandle((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'webarena.jsonl', { type: 'application/x-ndjson' }));
    return dt;
  }, text);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  assert.equal(await page.isVisible('#drop-overlay'), true);
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await page.waitForSelector('#events li.event');
  assert.equal(await page.textContent('[data-fact="layout"]'), 'JSONL');
  assert.equal(await page.textContent('[data-fact="runs"]'), '2');
  assert.equal(await page.textContent('[data-fact="events"]'), '29');
  assert.equal(await page.isVisible('#drop-overlay'), false);
  await page.screenshot({ path: join(artifacts, 'viewer-dropped.png') });
  await context.close();
});

test('several files picked at once load as one trace (an OpenHands conversation folder)', async () => {
  const { page, context, errors } = await openViewer();
  const dir = join(corpus, 'openhands');
  const names = readdirSync(dir).filter((n) => n.includes('3fdb316098bb48e1aa029ce56805792a__events__event-'));
  assert.ok(names.length >= 10, `CORPUS MISSING: conversation files in ${dir}`);
  await page.setInputFiles('#file-input', names.map((n) => join(dir, n)));
  await page.waitForSelector('#events li.event');
  assert.equal(await page.textContent('[data-fact="format"]'), 'openhands');
  assert.equal(await page.textContent('[data-fact="events"]'), String(names.length));
  assert.equal(await page.textContent('#file-name'), `${names.length} files`);
  await page.screenshot({ path: join(artifacts, 'viewer-openhands-folder.png') });

  // An Agent Catalog log shows the span path of each record.
  const log = join(corpus, 'couchbase-agentc', readdirSync(join(corpus, 'couchbase-agentc'))[0]);
  await page.setInputFiles('#file-input', log);
  await page.waitForFunction(() => document.querySelector('[data-fact="format"]')?.textContent === 'agent-catalog');
  assert.match(await page.textContent('#e-0 .span-path'), /Flight Search Agent/);
  await page.screenshot({ path: join(artifacts, 'viewer-agent-catalog.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('diagnostics and load errors are shown in words', async () => {
  const { page, context } = await openViewer();
  const broken = join(artifacts, 'broken.json');
  writeFileSync(broken, '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant" "content": "x"}\n]');
  await page.setInputFiles('#file-input', broken);
  await page.waitForSelector('#diagnostics[open]');
  const first = await page.textContent('#diagnostics-list li');
  assert.match(first, /json-syntax/);
  assert.match(first, /expected `,` or `}` after an object member/);
  assert.match(first, /line 3:24/);
  await page.screenshot({ path: join(artifacts, 'viewer-diagnostics.png') });

  const notTrace = join(artifacts, 'not-a-trace.json');
  writeFileSync(notTrace, '{"hello": "world"}');
  await page.setInputFiles('#file-input', notTrace);
  await page.waitForSelector('#load-error:not([hidden])');
  assert.match(await page.textContent('#load-error'), /not a supported trace format.*`hello`/);
  await context.close();
});

test('hostile trace content is shown as text and runs nothing', async () => {
  const { page, context, dialogs, requests } = await openViewer();
  const payloads = [
    '<script>window.__pwned = 1; alert(1)</script>',
    '<img src=x onerror="window.__pwned = 2; alert(2)">',
    '<svg onload="window.__pwned = 3">',
    '[click](javascript:window.__pwned=4)',
    '&lt;b&gt;entity&lt;/b&gt; \u202Eevil',
  ];
  const trace = [
    { role: 'user', content: payloads[0] },
    { role: payloads[1], content: payloads[2] },
    { role: 'assistant', content: payloads[3], tool_calls: [{ id: payloads[4], type: 'function', function: { name: payloads[1], arguments: { [payloads[0]]: payloads[2] } } }] },
    { role: 'tool', tool_call_id: payloads[4], content: payloads[1] },
  ];
  const file = join(artifacts, 'xss.json');
  writeFileSync(file, JSON.stringify(trace));
  await page.setInputFiles('#file-input', file);
  await page.waitForSelector('#events li.event');
  await page.locator('#events li.event .event-head button').first().click();
  const text = await page.textContent('#events');
  for (const p of payloads.slice(0, 4)) assert.ok(text.includes(p), `shown literally: ${p}`);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('#events script, #events img, #events svg').count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(server.url)), []);
  await page.screenshot({ path: join(artifacts, 'viewer-hostile.png') });
  await context.close();
});
