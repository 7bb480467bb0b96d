// The viewer page in real headless Chromium (Debian's chromium, driven by
// playwright-core): load a corpus file through the file input, see rows,
// filter, follow a call → result link, stay inert on hostile content, and
// make no request off the page. Screenshots go to test-artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CSP } from '../../scripts/serve.mjs';
import { launch, openViewer, root, corpus, artifacts, rowIndices, waitForCount, query, showEvents } from './helpers.mjs';

/** The core's grouping of dropped files, to compare the page with. */
const { groupFiles } = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));

let env;

before(async () => {
  env = await launch();
});

after(async () => {
  await env?.close();
});

test('loads a corpus file through the file input and shows its events', async () => {
  const { page, context, requests, errors, response } = await openViewer(env);
  assert.equal(response.headers()['content-security-policy'], CSP);
  const file = join(corpus, 'invariant', 'invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json');
  assert.ok(existsSync(file), `CORPUS MISSING: ${file}`);
  await page.setInputFiles('#file-input', file);
  await waitForCount(page, '44 events');
  // A conversation opens on its transcript; the events are a tab away.
  assert.equal(await page.getAttribute('#tab-transcript', 'aria-selected'), 'true');
  await showEvents(page);
  // A virtualised list: only the rows on screen (and a few more) exist.
  const shown = await page.locator('#event-list .vrow').count();
  assert.ok(shown > 10 && shown <= 44, `${shown} rows in the DOM`);
  assert.equal(await page.textContent('[data-fact="format"]'), 'openai');
  assert.equal(await page.textContent('[data-fact="events"]'), '44');
  assert.equal(await page.textContent('[data-fact="tool calls"]'), '28');
  await page.screenshot({ path: join(artifacts, 'viewer-loaded.png') });

  // Role filter: only tool results remain.
  await page.selectOption('#role-filter', 'tool');
  await page.waitForFunction(() => document.querySelector('#match-count').textContent.startsWith('28 of'));
  await page.waitForSelector('#event-list .vrow:not(.loading)');
  const badges = await page.locator('#event-list .vrow .badge').allTextContents();
  assert.ok(badges.length > 10, `${badges.length} badges`);
  assert.ok(badges.every((b) => b === 'tool'), badges.join());

  // The tool: term finds the results of that tool's calls.
  await page.fill('#query', 'tool:github-list_gists');
  await page.waitForFunction(() => document.querySelector('#match-count').textContent.startsWith('14 of'));

  // Text filter on top of the role.
  await page.fill('#query', '"list_issues"');
  await page.waitForFunction(() => !document.querySelector('#match-count').textContent.startsWith('14 of') && window.__viewer.state.query === '"list_issues"');
  const n = Number((await page.textContent('#match-count')).split(' ')[0]);
  assert.ok(n > 0 && n < 28, `text filter left ${n} rows`);
  await page.screenshot({ path: join(artifacts, 'viewer-filtered.png') });

  // A malformed query is explained inline, with the column.
  await page.fill('#query', 'colour:red');
  await page.waitForSelector('#query-error:not([hidden])');
  assert.match(await page.textContent('#query-error'), /column 1: unknown field `colour:`/);
  assert.equal(await page.getAttribute('#query', 'aria-invalid'), 'true');

  // Clear filters and follow a call → result link.
  await page.selectOption('#role-filter', '');
  await query(page, '', 44);
  const link = page.locator('#event-list .vrow a.event-link[title="the result"]').first();
  const target = await link.getAttribute('data-event');
  const from = Number((await link.locator('xpath=ancestor::div[@data-pos]').getAttribute('data-pos')));
  await link.click();
  await page.waitForSelector(`#event-list .vrow.selected >> text=#${target}`);
  await page.waitForSelector('#detail .answers');
  assert.match(await page.textContent('#detail .answers'), new RegExp(`← answers #${from}`));
  // …and back from the result to its call.
  await page.click('#detail .answers a.event-link');
  await page.waitForFunction((f) => document.querySelector('#detail-title')?.textContent.startsWith(`Event #${f} `), from);

  // Raw JSON of an event is its exact source text.
  await page.click('#row-0');
  await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #0 '));
  const raw = await page.textContent('#detail pre.raw');
  assert.equal(JSON.parse(raw).role, 'system');

  const offPage = requests.filter((u) => !u.startsWith(env.server.url));
  assert.deepEqual(offPage, [], 'no request may leave the page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a file dropped anywhere on the page loads', async () => {
  const { page, context } = await openViewer(env);
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
  await waitForCount(page, '29 events');
  assert.equal(await page.textContent('[data-fact="layout"]'), 'JSONL');
  assert.equal(await page.textContent('[data-fact="runs"]'), '2');
  assert.equal(await page.textContent('[data-fact="events"]'), '29');
  assert.equal(await page.isVisible('#drop-overlay'), false);
  // Two runs: the run switcher shows them.
  assert.equal(await page.isVisible('#run-select'), true);
  assert.equal(await page.locator('#run-select option').count(), 3);
  await page.screenshot({ path: join(artifacts, 'viewer-dropped.png') });
  await context.close();
});

test('diagnostics and load errors are shown in words', async () => {
  const { page, context } = await openViewer(env);
  const broken = join(artifacts, 'broken.json');
  writeFileSync(broken, '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant" "content": "x"}\n]');
  await page.setInputFiles('#file-input', broken);
  await page.waitForSelector('[data-fact="errors"]');
  assert.equal(await page.textContent('[data-fact="errors"]'), '1');
  await page.click('#tab-diagnostics');
  await page.waitForSelector('#diagnostics-list .vrow:not(.loading)');
  const first = await page.textContent('#diagnostics-list .vrow');
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
  const { page, context, dialogs, requests } = await openViewer(env);
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
    { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://attacker.example/pixel.png' } }, { type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+' } }] },
  ];
  const file = join(artifacts, 'xss.json');
  writeFileSync(file, JSON.stringify(trace));
  await page.setInputFiles('#file-input', file);
  await waitForCount(page, '5 events');
  await showEvents(page);
  let text = await page.textContent('#event-list');
  for (const p of payloads.slice(0, 2)) assert.ok(text.includes(p), `row shows literally: ${p}`);
  for (const i of [0, 1, 2, 3, 4]) {
    await page.click(`#row-${i}`);
    await page.waitForFunction((i) => document.querySelector('#detail-title')?.textContent.startsWith(`Event #${i} `), i);
    await page.click('#detail .raw-source summary');
    text += await page.textContent('#detail');
  }
  for (const p of payloads.slice(0, 4)) assert.ok(text.includes(p), `shown literally: ${p}`);
  assert.match(text, /image 1 not loaded/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('#event-list script, #event-list img, #event-list svg, #detail script, #detail svg').count(), 0);
  // Neither the remote image nor the SVG data URL became an <img>.
  assert.equal(await page.locator('#detail img').count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.server.url)), []);
  await page.screenshot({ path: join(artifacts, 'viewer-hostile.png') });
  await context.close();
});

test('an older Claude Code project folder: an agent-<id>.jsonl beside two sessions opens in the trace of the session its records name', async () => {
  const { page, context, errors } = await openViewer(env);
  const big = '4d5611e5-241a-462a-8d15-5122611a9569';
  const other = '11111111-2222-4333-8444-555555555555';
  const src = join(corpus, 'claude-code', `marot__spotter__test__fixtures__transcripts__${big}`);
  assert.ok(existsSync(`${src}.jsonl`), `CORPUS MISSING: ${src}.jsonl`);
  // The layout older Claude Code versions wrote: sub-agents beside the sessions, named by nothing but their records.
  const dir = join(artifacts, 'older-claude-project');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(`${src}__subagents__agent-a2898e3.jsonl`, join(dir, 'agent-a2898e3.jsonl'));
  copyFileSync(`${src}.jsonl`, join(dir, `${big}.jsonl`));
  copyFileSync(join(root, 'tests', 'fixtures', 'claude-code', 'session', `${other}.jsonl`), join(dir, `${other}.jsonl`));
  await page.setInputFiles('#folder-input', dir);
  await page.waitForFunction(() => document.querySelectorAll('#file-switcher option').length === 2);
  const options = (await page.locator('#file-switcher option').allTextContents()).map((o) => o.replace(/ \([\d,]+ events\)$/, ''));
  const group = `older-claude-project/${big} (2 session files)`;
  assert.deepEqual([...options].sort(), [group, `older-claude-project/${other}.jsonl`].sort(), 'two traces: the session with its sub-agent, and the other session');
  const runsOf = async (i, name) => {
    await page.selectOption('#file-switcher', String(i));
    await page.waitForFunction((n) => document.querySelector('#status').textContent.startsWith(`Loaded ${n}`) && window.__viewer.state.info, name);
    return page.evaluate(() => window.__viewer.state.info.runs.map((r) => ({ id: r.id, startedBy: r.startedBy })));
  };
  const runs = await runsOf(options.indexOf(group), `${big} (2 session files)`);
  assert.equal(runs[0].id, big, 'the session is run 0');
  const agent = runs.find((r) => r.id === 'agent-a2898e3');
  assert.ok(agent, JSON.stringify(runs));
  assert.ok(agent.startedBy, 'linked to the Task call that started it');
  assert.ok(!runs.some((r) => r.id === other), 'the other session is not merged in');
  const alone = await runsOf(options.indexOf(`older-claude-project/${other}.jsonl`), `${other}.jsonl`);
  assert.ok(!alone.some((r) => r.id === 'agent-a2898e3' || r.id === big), JSON.stringify(alone));
  assert.deepEqual(errors, []);
  await context.close();
});

test('an OpenHands conversation folder (one event per file) opens as one trace', async () => {
  const { page, context, errors } = await openViewer(env);
  const dir = join(corpus, 'openhands');
  const names = readdirSync(dir).filter((n) => n.includes('3fdb316098bb48e1aa029ce56805792a__events__event-'));
  assert.ok(names.length >= 10, `CORPUS MISSING: conversation files in ${dir}`);
  // The event files and one other trace: the core groups the event files (groupFiles), the other stays a file.
  const [sample] = JSON.parse(readFileSync(join(root, 'www', 'samples', 'index.json'), 'utf8'));
  await page.setInputFiles('#file-input', [...names.map((n) => join(dir, n)), join(root, 'www', 'samples', sample.file)]);
  const groups = groupFiles([...names, sample.file]);
  assert.deepEqual(groups.map((g) => g.files.length), [names.length, 1]);
  const { name } = groups[0];
  assert.ok(name.endsWith(`__events (${names.length} event files)`), name);
  await page.waitForFunction(() => document.querySelectorAll('#file-switcher option').length === 2);
  const options = (await page.locator('#file-switcher option').allTextContents()).map((o) => o.replace(/ \(\d+ events\)$/, ''));
  assert.deepEqual([...options].sort(), [name, sample.file].sort(), 'the group is one entry, named by the core');
  await page.selectOption('#file-switcher', String(options.indexOf(name)));
  await waitForCount(page, `${names.length} events`);
  assert.equal(await page.textContent('[data-fact="format"]'), 'openhands');
  assert.equal(await page.textContent('[data-fact="events"]'), String(names.length));
  // Several files read as one: the summary counts them (the joined source's JSONL says nothing).
  assert.equal(await page.textContent('[data-fact="layout"]'), `${names.length} files`);
  await page.waitForFunction((n) => document.querySelector('#status').textContent === `Loaded ${n}`, name);
  await page.screenshot({ path: join(artifacts, 'viewer-openhands-folder.png') });

  // An Agent Catalog log: its events carry span paths, and span: filters by them.
  const log = join(corpus, 'couchbase-agentc', readdirSync(join(corpus, 'couchbase-agentc'))[0]);
  await page.setInputFiles('#file-input', log);
  await waitForCount(page, '30 events');
  await page.fill('#query', 'span:"Flight Search Agent/FlightSearchGraph"');
  await page.waitForFunction(() => /^\d+ of 30 events$/.test(document.querySelector('#match-count').textContent));
  const n = Number((await page.textContent('#match-count')).split(' ')[0]);
  assert.ok(n > 0 && n < 30, `span: kept ${n} of 30`);
  assert.deepEqual(errors, []);
  await context.close();
});
