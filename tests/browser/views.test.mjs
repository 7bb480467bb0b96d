// The format-specific views in Chromium, checked against the reference
// libraries' own output: the AgentRun text view (Docent's goldens, byte for
// byte, in both styles, with context configs and token-limit chunks; copy and
// download), OpenHands' condensed and LLM-message views through the generic
// format view (the SDK's goldens),
// and the span tree on real Agent Catalog records. Screenshots go to
// test-artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { launch, openViewer, root, corpus, artifacts, loadSample, showEvents } from './helpers.mjs';

const require = createRequire(import.meta.url);
const golden = (name) => readFileSync(join(root, 'tests', 'golden', 'agentrun-text', name), 'utf8');
const contexts = JSON.parse(golden('cases.json')).contexts;

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

/** The text the view shows (one piece), once it is rendered for the current controls. */
async function shownText(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('#agentrun-summary')?.textContent ?? '';
    return s && !s.startsWith('Rendering');
  });
  return page.$eval('#agentrun-output pre', (pre) => pre.textContent);
}

test('AgentRun text view: Docent goldens byte for byte, token count, chunks, copy and download', async () => {
  const { page, context, errors, requests } = await openViewer(env);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url.replace(/\/$/, '') });
  await loadSample(page, 'docent-calculator.json');
  const before = requests.length;
  await page.click('#tab-agentrun');
  await page.waitForSelector('#agentrun-output pre');

  // Current style, Docent's default context (all metadata hidden).
  assert.equal(await shownText(page), golden('basic-older.current.txt'));
  const { count } = require(join(root, 'pkg', 'tokenizer-node', 'atv_tokenizer.js'));
  const tokens = count(golden('basic-older.current.txt'));
  await page.waitForFunction((n) => document.querySelector('#agentrun-summary').textContent.includes(`${n.toLocaleString()} tokens`), tokens);
  await page.screenshot({ path: join(artifacts, 'view-agentrun-current.png') });

  // Every metadata section shown: the golden rendered with contexts.all.
  for (const box of await page.$$('#agentrun-metadata input[type=checkbox]')) await box.check();
  await page.waitForFunction((t) => document.querySelector('#agentrun-output pre')?.textContent === t, golden('basic-older.current.all.txt'));

  // A Docent context config pasted as JSON replaces the checkboxes.
  await page.click('#agentrun-form details summary');
  await page.fill('#agentrun-context', JSON.stringify(contexts.mixed));
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForFunction((t) => document.querySelector('#agentrun-output pre')?.textContent === t, golden('basic-older.current.mixed.txt'));
  // A config that is not JSON is explained, not thrown.
  await page.fill('#agentrun-context', '{"type": ');
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForSelector('#agentrun-error:not([hidden])');
  assert.match(await page.textContent('#agentrun-error'), /context config is not JSON/);
  await page.fill('#agentrun-context', '');

  // Legacy style: the whole text, then the chunks of a 200-token limit.
  await page.selectOption('#agentrun-style', 'legacy');
  await page.waitForFunction((t) => document.querySelector('#agentrun-output pre')?.textContent === t, golden('basic-older.legacy.txt'));
  assert.equal(await page.isVisible('#agentrun-metadata'), false, 'metadata sections are a current-style control');
  await page.fill('#agentrun-token-limit', '200');
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForSelector('.agentrun-chunk');
  const chunks = JSON.parse(golden('basic-older.legacy.200.json'));
  assert.deepEqual(await page.$$eval('.agentrun-chunk pre', (pres) => pres.map((p) => p.textContent)), chunks);
  const headings = await page.$$eval('.agentrun-chunk h3', (hs) => hs.map((h) => h.textContent));
  assert.equal(headings.length, chunks.length);
  headings.forEach((h, i) => assert.match(h, new RegExp(`^Chunk ${i + 1} of ${chunks.length} · ${count(chunks[i]).toLocaleString()} tokens? `)));
  assert.match(await page.textContent('#agentrun-summary'), new RegExp(`^${chunks.length} chunks of at most 200 tokens`));
  await page.screenshot({ path: join(artifacts, 'view-agentrun-chunks.png'), fullPage: true });

  // Copy: the whole text on the clipboard (chunks joined by a blank line); one chunk alone.
  await page.click('#agentrun-copy');
  await page.waitForFunction(() => document.querySelector('#agentrun-copy').textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), chunks.join('\n\n'));
  await page.click('.agentrun-chunk:nth-of-type(2) h3 button');
  await page.waitForFunction(() => document.querySelector('.agentrun-chunk:nth-of-type(2) h3 button').textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), chunks[1]);

  // Download: a .txt with exactly the text.
  await page.fill('#agentrun-token-limit', '');
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForFunction((t) => document.querySelector('#agentrun-output pre')?.textContent === t, golden('basic-older.legacy.txt'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#agentrun-download')]);
  assert.equal(download.suggestedFilename(), 'docent-calculator.run0.legacy.txt');
  assert.equal(readFileSync(await download.path(), 'utf8'), golden('basic-older.legacy.txt'));

  // The tokenizer came from this site, on demand, and nothing else was fetched.
  const later = requests.slice(before).filter((u) => !u.startsWith('blob:')).map((u) => new URL(u));
  assert.ok(later.every((u) => u.origin === new URL(env.server.url).origin), later.join(', '));
  // (The markdown parser the transcript loaded may be fetched after the load settled: not this view's.)
  assert.deepEqual([...new Set(later.map((u) => u.pathname))].filter((p) => p !== '/vendor/markdown.js').sort(), ['/pkg/atv_tokenizer.js', '/pkg/atv_tokenizer_bg.wasm']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('AgentRun text view: a limit at which docent-python gives no chunks says so', async () => {
  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', join(root, 'tests', 'golden', 'agentrun-text', 'empty-transcript-older.json'));
  await page.click('#tab-agentrun');
  await page.waitForSelector('#agentrun-output pre');
  await page.selectOption('#agentrun-style', 'legacy');
  await page.waitForFunction((t) => document.querySelector('#agentrun-output pre')?.textContent === t, golden('empty-transcript-older.legacy.txt'));
  assert.deepEqual(JSON.parse(golden('empty-transcript-older.legacy.38.json')), []);
  await page.fill('#agentrun-token-limit', '38');
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForFunction(() => /^0 chunks of at most 38 tokens/.test(document.querySelector('#agentrun-summary').textContent));
  assert.match(await page.textContent('#agentrun-summary'), /docent-python gives no chunks for this run at this limit.*raise the limit/);
  assert.equal(await page.$$eval('.agentrun-chunk', (c) => c.length), 0);
  // At 100 tokens docent-python gives one chunk, and so does the view.
  await page.fill('#agentrun-token-limit', '100');
  await page.click('#agentrun-form button[type=submit]');
  await page.waitForSelector('.agentrun-chunk');
  assert.deepEqual(await page.$$eval('.agentrun-chunk pre', (pres) => pres.map((p) => p.textContent)), JSON.parse(golden('empty-transcript-older.legacy.100.json')));
  assert.deepEqual(errors, []);
  await context.close();
});

test("AgentRun text view follows the run switcher and equals the npm package's text for that run", async () => {
  const { page, context, errors } = await openViewer(env);
  const runs = readFileSync(join(root, 'tests', 'fixtures', 'docent', 'lib_older_runs.jsonl'));
  await page.setInputFiles('#file-input', { name: 'runs.jsonl', mimeType: 'application/json', buffer: runs });
  await showEvents(page);
  await page.click('#tab-agentrun');
  await page.waitForSelector('#agentrun-output pre');
  const first = await shownText(page);
  assert.match(await page.textContent('#view-other h2'), /^AgentRun text of run #0 of \d+$/);
  await page.selectOption('#run-select', '1');
  await page.waitForFunction(() => /^AgentRun text of run #1 /.test(document.querySelector('#view-other h2')?.textContent ?? ''));
  const second = await shownText(page);
  assert.notEqual(second, first);
  // The same text the npm package renders for run 1.
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(new Uint8Array(runs));
  assert.equal(second, trace.toAgentRunText({ run: 1 }));
  trace.free();
  assert.deepEqual(errors, []);
  await context.close();
});

test("OpenHands views through the generic format view: condensed and LLM messages match the SDK's own (openhands-sdk goldens); rows jump to events", async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'openhands-events.jsonl');
  const expected = JSON.parse(readFileSync(join(root, 'tests', 'golden', 'openhands', 'sdk_stream.jsonl.json'), 'utf8')).runs[0];
  // The tabs are the views the core declares for the trace, in its order.
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(readFileSync(join(root, 'www', 'samples', 'openhands-events.jsonl')));
  const declared = trace.formatViews();
  trace.free();
  assert.deepEqual(declared.map((v) => v.name), ['condensed', 'llm-messages']);
  const tabs = await page.$$eval('#tabs [role=tab]', (ts) => ts.map((t) => [t.dataset.view, t.textContent]));
  assert.deepEqual(tabs.filter(([id]) => id.startsWith('format-')), declared.map((v) => [`format-${v.name}`, v.label]));

  await page.click('#tab-format-condensed');
  await page.waitForSelector('#format-condensed-list .vrow:not(.loading)');
  await page.waitForFunction((n) => document.querySelectorAll('#format-condensed-list [data-sdk-id]').length === n, expected.view.length);
  const shown = await page.$$eval('#format-condensed-list [data-sdk-id]', (rows) => rows.map((r) => ({ id: r.dataset.sdkId, kind: r.dataset.sdkKind, text: r.textContent })));
  assert.deepEqual(shown.map(({ id, kind }) => ({ id, kind })), expected.view.map(({ id, kind }) => ({ id, kind })));
  const summary = expected.view.find((v) => v.summary);
  assert.ok(summary, 'the fixture has a condensation summary');
  const summaryRow = shown.find((s) => s.id === summary.id);
  assert.ok(summaryRow.text.includes(summary.summary));
  assert.ok(summaryRow.text.includes('summary'), 'the summary item carries its badge');
  assert.match(await page.textContent('#format-condensed-title'), /^Condensed view of run #0/);
  assert.match(await page.textContent('#format-condensed-notes'), /events remain, \d+ forgotten by condensations/);
  await page.screenshot({ path: join(artifacts, 'view-openhands-condensed.png') });
  // A click on an event's row opens it in the events view.
  const actionPos = expected.view.findIndex((v) => v.kind === 'ActionEvent');
  await page.click(`#format-condensed-${actionPos}`);
  await page.waitForFunction(() => document.querySelector('#tab-events').getAttribute('aria-selected') === 'true' && document.querySelector('#detail-title'));
  assert.match(await page.textContent('#detail'), /ActionEvent/);
  assert.equal(await page.evaluate(() => window.__viewer.state.view), 'events');

  await page.click('#tab-format-llm-messages');
  await page.waitForSelector('#format-llm-messages-list .vrow:not(.loading)');
  await page.waitForFunction((n) => document.querySelectorAll('#format-llm-messages-list [data-role]').length === n, expected.messages.length);
  const messages = await page.$$eval('#format-llm-messages-list [data-role]', (rows) => rows.map((r) => ({ role: r.dataset.role, ids: r.dataset.toolCallIds })));
  assert.deepEqual(messages, expected.messages.map((m) => ({ role: m.role, ids: (m.tool_call_ids ?? [m.tool_call_id ?? '']).join(' ') })));
  // Each message shows its role as a badge.
  const badges = await page.$$eval('#format-llm-messages-list [data-role] > .badge', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(badges, expected.messages.map((m) => m.role));
  // A batch (several calls in one assistant message) says how many.
  const texts = await page.$$eval('#format-llm-messages-list [data-role]', (rows) => rows.map((r) => r.textContent));
  const batches = expected.messages.map((m, i) => [i, m.tool_call_ids?.length ?? 0]).filter(([, n]) => n > 1);
  assert.ok(batches.length, 'the sample has a batch of calls');
  for (const [i, n] of batches) assert.ok(texts[i].includes(`${n} tool calls`), texts[i]);
  assert.match(await page.textContent('#format-llm-messages-notes'), /^\d+ messages, as OpenHands' events_to_messages/);
  await page.screenshot({ path: join(artifacts, 'view-openhands-llm.png') });
  // The view is in the hash: a reload comes back to it.
  assert.match(page.url(), /[#&]v=format-llm-messages\b/);
  await page.reload();
  await page.waitForSelector('#format-llm-messages-list .vrow:not(.loading)');
  assert.deepEqual(errors, []);
  await context.close();
});

test('spans view on real Agent Catalog records: the nesting of begin/end, a click opens the span', async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'agent-catalog-flight-search.jsonl');
  const bytes = readFileSync(join(root, 'www', 'samples', 'agent-catalog-flight-search.jsonl'));
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(new Uint8Array(bytes));
  const spans = trace.spans();
  trace.free();
  // The file's own structure: every begin has its end, span names are paths.
  const records = bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
  const begins = records.filter((r) => r.content?.kind === 'begin').length;
  assert.equal(spans.length, begins);
  assert.ok(spans.some((s) => s.depth > 0), 'nested spans');

  await page.click('#tab-spans');
  await page.waitForSelector('.span-tree li');
  const items = await page.$$eval('.span-tree li', (lis) => lis.map((li) => ({ level: Number(li.getAttribute('aria-level')), name: li.querySelector('button').textContent })));
  assert.deepEqual(items, spans.map((s) => ({ level: s.depth + 1, name: s.name || '(unnamed)' })));
  await page.screenshot({ path: join(artifacts, 'view-spans-agent-catalog.png') });
  const deepest = spans.reduce((a, s, i) => (s.depth > spans[a].depth ? i : a), 0);
  await page.click(`.span-tree li:nth-child(${deepest + 1}) button`);
  await page.waitForFunction((i) => document.querySelector('#detail-title')?.textContent.startsWith(`Event #${i} `), spans[deepest].begin);
  assert.deepEqual(errors, []);
  await context.close();
});

test('diagnostics: the same finding on many records is one line, "N records: message", that expands to them', async () => {
  // Real output of another openhands-sdk version: its action and observation kinds are unknown to ours.
  const file = join(corpus, 'openhands', 'OpenHands__benchmarks__benchmarks__openagentsafety__outputs__mgulavani__openagentsafety_full_updated-train__litellm_proxy__neulab__gpt-4o-2024-08-06_maxiter_100_N_initial__output.jsonl');
  assert.ok(existsSync(file), `CORPUS MISSING: ${file}`);
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(readFileSync(file));
  const diagnostics = trace.diagnostics();
  trace.free();
  // The groups, worked out here: one per (code, severity, message), in order of first occurrence.
  const groups = [];
  const byKey = new Map();
  diagnostics.forEach((d, i) => {
    const key = JSON.stringify([d.code, d.severity, d.message]);
    if (!byKey.has(key)) {
      byKey.set(key, { ...d, members: [] });
      groups.push(byKey.get(key));
    }
    byKey.get(key).members.push(i);
  });
  const big = groups.findIndex((g) => g.members.length > 1);
  assert.ok(big >= 0 && groups.length < diagnostics.length, 'the file repeats a finding');

  const { page, context, errors } = await openViewer(env);
  await page.setInputFiles('#file-input', file);
  await showEvents(page);
  await page.click('#tab-diagnostics');
  await page.waitForSelector('#diagnostics-list .vrow:not(.loading)');
  const lines = () => page.$eval('#diagnostics-list .vrow', (r) => Number(r.getAttribute('aria-setsize')));
  assert.equal(await lines(), groups.length, 'one line per group');
  const shown = await page.$$eval('#diagnostics-list .vrow', (rows) => rows.map((r) => r.textContent));
  groups.slice(0, shown.length).forEach((g, i) => {
    const events = new Set(g.members.map((m) => diagnostics[m].event).filter((e) => e !== null && e !== undefined)).size;
    const n = g.members.length;
    const count = n === events ? `${n} records` : events ? `${n} diagnostics in ${events} records` : `${n} times`;
    if (n > 1) assert.ok(shown[i].includes(`${count}: ${g.message}`), `line ${i}: ${shown[i]}`);
    else assert.ok(shown[i].includes(g.message) && !shown[i].includes('records:'), `line ${i}: ${shown[i]}`);
    assert.ok(shown[i].includes(g.code), `line ${i} names its code`);
  });
  assert.match(await page.textContent('#diagnostics-hint'), new RegExp(`^${groups.length} distinct findings`));
  await page.screenshot({ path: join(artifacts, 'view-diagnostics-grouped.png') });

  // Expanding a group lists its findings, in the trace's order, under it.
  await page.click(`#diag-${big}`);
  await page.waitForFunction(([n]) => Number(document.querySelector('#diagnostics-list .vrow')?.getAttribute('aria-setsize')) === n, [groups.length + groups[big].members.length]);
  assert.equal(await page.getAttribute(`#diag-${big} .d-group`, 'aria-expanded'), 'true');
  const members = groups[big].members.slice(0, 5);
  await page.waitForFunction((n) => document.querySelectorAll('#diagnostics-list .d-member').length >= n, members.length);
  const memberIndices = await page.$$eval('#diagnostics-list .d-member', (rows) => rows.map((r) => Number(r.dataset.diagnostic)));
  assert.deepEqual(memberIndices.slice(0, members.length), members);
  await page.screenshot({ path: join(artifacts, 'view-diagnostics-group-open.png') });
  // A finding of the group opens its event.
  const first = diagnostics[members[0]];
  await page.click(`#diag-${big + 1}`);
  await page.waitForFunction((i) => document.querySelector('#detail-title')?.textContent.startsWith(`Event #${i} `), first.event);
  // Back in the view, Enter on the group's line closes it again.
  await page.click('#tab-diagnostics');
  await page.waitForSelector('#diagnostics-list .vrow:not(.loading)');
  assert.equal(await lines(), groups.length, 'a new render starts with every group closed');
  assert.deepEqual(errors, []);
  await context.close();
});

test("stats view shows the core's tool stats and token usage, as the npm package computes them", async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'agentlens-session.json');
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(new Uint8Array(readFileSync(join(root, 'www', 'samples', 'agentlens-session.json'))));
  const stats = trace.stats();
  trace.free();
  assert.ok(stats.tools.length > 0 && stats.usage.events > 0);
  await page.click('#tab-stats');
  await page.waitForSelector('#tool-table');
  const rows = await page.$$eval('#tool-table tbody tr', (trs) => trs.map((r) => [...r.children].map((c) => c.textContent)));
  const n = (x) => x.toLocaleString('en-US');
  assert.deepEqual(rows, stats.tools.map((t) => [t.tool, n(t.calls), n(t.answered), n(t.unanswered), n(t.failures)]));
  const tokens = await page.$$eval('.stat-block h3', (hs) => hs.map((h) => h.textContent).find((t) => t.startsWith('Tokens')));
  assert.equal(tokens, `Tokens (${n(stats.usage.events)} model calls)`);
  const cells = await page.$$eval('.stat-block table.tools', (ts) => [...ts.at(-1).querySelectorAll('tbody tr:last-child td')].map((c) => c.textContent));
  const total = stats.usage.total;
  assert.deepEqual(cells, [total.inputTokens, total.outputTokens, total.cacheReadInputTokens, total.cacheCreationInputTokens, total.totalTokens].map(n));
  assert.doesNotMatch(await page.textContent('#view-other'), /\b(null|undefined)\b/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('stats view shows the cost the trace reports, as the npm package sums it, and no cost block when none is reported', async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'langfuse-google-adk.json');
  const { parseTrace } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = parseTrace(new Uint8Array(readFileSync(join(root, 'www', 'samples', 'langfuse-google-adk.json'))));
  const { cost, events } = trace.stats().usage;
  trace.free();
  assert.ok(cost && cost.events > 0, 'the sample reports a cost');
  await page.click('#tab-stats');
  await page.waitForSelector('#stats-cost');
  const n = (x) => x.toLocaleString('en-US');
  assert.equal(await page.textContent('#stats-cost h3'), `Cost (reported by ${n(cost.events)} of ${n(events)} model calls)`);
  // Three significant digits below a cent: 1.03e-5 is $0.0000103, not a rounded $0.00001.
  const dollars = (x) => {
    const [whole, frac] = x.toFixed(Math.max(2, Math.min(10, 2 - Math.floor(Math.log10(Math.abs(x)))))).split('.');
    return `$${whole}.${frac.replace(/0+$/, '').padEnd(2, '0')}`;
  };
  assert.equal(dollars(cost.total.total), '$0.0000103', 'the sample total, to three digits');
  const rows = await page.$$eval('#stats-cost tbody tr', (trs) => trs.map((r) => [...r.children].map((c) => c.textContent)));
  const part = (x) => (x === undefined ? '—' : dollars(x));
  const want = Object.entries(cost.byModel).map(([m, c]) => [m || '(model not named)', part(c.input), part(c.output), dollars(c.total)]);
  if (want.length > 1) want.push(['all', part(cost.total.input), part(cost.total.output), dollars(cost.total.total)]);
  assert.deepEqual(rows, want);
  await page.screenshot({ path: join(artifacts, 'view-stats-cost.png') });
  await loadSample(page, 'agentlens-session.json');
  await page.click('#tab-stats');
  await page.waitForSelector('#tool-table');
  assert.equal(await page.$('#stats-cost'), null, 'no cost reported: no cost block (not $0.00)');
  assert.deepEqual(errors, []);
  await context.close();
});
