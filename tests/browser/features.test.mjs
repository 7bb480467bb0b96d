// The viewer as a product, in Chromium: samples, every query form, deep
// links across reload and back/forward, the keyboard, views, loading by
// paste / several files / a folder / ?url=, the request log, and dist/
// served from a sub-path. Screenshots of each view go to test-artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { launch, openViewer, root, artifacts, rowIndices, waitForCount, query, loadSample } from './helpers.mjs';
import { startServer } from '../../scripts/serve.mjs';

const { parseTrace } = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));

let env;

before(async () => {
  env = await launch();
});

after(async () => {
  await env?.close();
});

const SAMPLE = join(root, 'www', 'samples', 'openai-weather.json');

/** Everything the page may request while it starts: its own files, the wasm, the sample list. */
const STARTUP = new Set([
  '/', '/style.css', '/app.js', '/viewer.js', '/client.js', '/dom.js', '/events.js', '/jsontree.js', '/vlist.js', '/loader.js', '/worker.js',
  // The worker's reader of a large .eval's slices (imported by worker.js; small, no trace content).
  '/lazy-archive.js',
  '/views/index.js', '/views/registry.js', '/views/stats.js', '/views/diagnostics.js', '/views/spans.js', '/views/timeline.js', '/views/format.js', '/views/agentrun.js', '/views/runs/index.js', '/views/runs/columns.js', '/views/runs/score-summary.js', '/views/compare.js', '/views/span-chart.js',
  '/pkg/agent_trace_viewer.js', '/pkg/agent_trace_viewer_bg.wasm', '/samples/index.json',
  // viewer.js's parts, and the Transcript view's (the worker imports its page-data.js).
  ...readdirSync(join(root, 'www', 'viewer')).map((f) => `/viewer/${f}`),
  ...readdirSync(join(root, 'www', 'views', 'transcript')).map((f) => `/views/transcript/${f}`),
]);
/** The markdown parser bundle: the worker fetches it once, when a transcript is first shown. */
const MARKDOWN = '/vendor/markdown.js';

test('every bundled sample loads; the request log holds only what the page needs', async () => {
  const samples = JSON.parse(readFileSync(join(root, 'www', 'samples', 'index.json'), 'utf8'));
  assert.ok(samples.length >= 1);
  const { page, context, errors, requests } = await openViewer(env);
  const startup = requests.map((u) => new URL(u)).filter((u) => u.origin === new URL(env.server.url).origin);
  assert.equal(startup.length, requests.length, `off-site requests: ${requests.join(', ')}`);
  const unexpected = startup.map((u) => u.pathname).filter((p) => !STARTUP.has(p));
  assert.deepEqual(unexpected, [], 'unexpected requests at startup');
  const atReady = requests.length;
  assert.match(await page.textContent('#format-list'), /\bopenai\b/);
  const options = await page.$$eval('#sample-select option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.deepEqual(options, samples.map((s) => s.file));
  for (const s of samples) {
    await loadSample(page, s.file);
    // The format the core detects (the index names none: detection decides).
    const trace = parseTrace(readFileSync(join(root, 'www', 'samples', s.file)));
    assert.equal(await page.textContent('[data-fact="format"]'), trace.format);
    trace.free();
    assert.ok(Number(await page.textContent('[data-fact="events"]')) > 0);
    assert.equal(new URL(page.url()).searchParams.get('sample'), s.file);
  }
  // After start, only the samples the user picked, and once the markdown parser (the first sample opened on its transcript).
  const later = requests.slice(atReady).map((u) => new URL(u).pathname);
  assert.deepEqual(later.filter((p) => p !== MARKDOWN), samples.map((s) => `/samples/${s.file}`));
  assert.equal(later.filter((p) => p === MARKDOWN).length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('each query form filters to the right rows', async () => {
  const { page, context } = await openViewer(env);
  await loadSample(page);
  await waitForCount(page, '12 events');
  // Expected rows worked out by hand from www/samples/openai-weather.json.
  const cases = [
    ['role:assistant', [2, 5, 7, 9, 11]],
    ['kind:tool-result', [3, 4, 6, 8]],
    ['kind:ToolOutput', [3, 4, 6, 8]],
    ['tool:send_email', [5, 6, 7, 8]],
    ['span:agent', []],
    ['is:error', [6, 7]],
    ['is:warning', [11]],
    ['has:tool_calls', [2, 5, 7, 11]],
    ['lyon', [1, 2, 4, 5, 9, 10, 11]],
    ['LYON thunderstorms', [4, 5, 9]],
    ['"smtp error"', [6, 9]],
    ['/thunder\\w+/', [4, 5, 9]],
    ['after:2024-05-01T09:00:30Z', [9, 10, 11]],
    ['before:2024-05-01T09:00:05Z', [0, 1]],
    ['after:2024-05-01T11:00:30+02:00 before:2024-05-01T09:01:03Z', [9, 10]],
    ['-role:tool', [0, 1, 2, 5, 7, 9, 10, 11]],
    ['role:user OR role:system', [0, 1, 10]],
    ['(tool:get_weather OR tool:book_restaurant) -role:tool', [2, 11]],
    ['-(role:assistant OR role:tool)', [0, 1, 10]],
  ];
  for (const [q, expected] of cases) {
    await query(page, q, 12);
    const want = expected.length === 12 ? '12 events' : `${expected.length} of 12 events`;
    assert.equal(await page.textContent('#match-count'), want, q);
    assert.deepEqual(await rowIndices(page), expected, q);
  }
  // The role menu combines with the typed query (and keeps OR inside it).
  await page.selectOption('#role-filter', 'tool');
  await query(page, 'lyon OR paris', 12);
  assert.deepEqual(await rowIndices(page), [3, 4]);
  await page.selectOption('#role-filter', '');
  // Facets count the matches; clicking one narrows the query.
  await query(page, 'lyon', 12);
  const facetText = await page.textContent('#facets');
  assert.match(facetText, /assistant 4/);
  assert.match(facetText, /get_weather 2/);
  await page.click('#facets .chip:has-text("get_weather")');
  await page.waitForFunction(() => window.__viewer.state.query === 'lyon tool:get_weather');
  await waitForCount(page, '2 of 12 events');
  // Malformed queries: the message names the problem and the column.
  const bad = [
    ['role:tool OR', /column 11: `OR` needs a term after it/],
    ['(role:tool', /column 1: unclosed `\(`/],
    ['after:yesterday', /column 7: `yesterday` is not a time/],
    ['/a(/', /column 1: invalid regex/],
    ['x "open', /column 3: unterminated phrase/],
  ];
  for (const [q, message] of bad) {
    await page.fill('#query', q);
    await page.waitForFunction((m) => !document.querySelector('#query-error').hidden && new RegExp(m).test(document.querySelector('#query-error').textContent), message.source);
  }
  await page.screenshot({ path: join(artifacts, 'query-error.png') });
  await context.close();
});

test('deep links: the hash holds event, query and view, and survives reload and back/forward', async () => {
  const { page, context } = await openViewer(env);
  await loadSample(page);
  await query(page, 'role:tool', 12);
  await page.click('#row-2');
  await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #6 '));
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  assert.equal(hash.get('e'), '6');
  assert.equal(hash.get('q'), 'role:tool');
  assert.match(page.url(), /#e=6&q=role:tool/);
  const link = page.url();

  // Reload: same file (?sample=), same filter, same selection, detail open.
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #6 '));
  assert.equal(await page.inputValue('#query'), 'role:tool');
  await waitForCount(page, '4 of 12 events');
  assert.equal(await page.getAttribute('#row-2', 'aria-selected'), 'true');

  // A fresh tab opening the link gets the same state.
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #6 '));
  await other.close();

  // Views are in the hash too; back and forward move between states.
  await page.click('#tab-stats');
  await page.waitForSelector('#tool-table');
  assert.match(page.url(), /v=stats/);
  await page.click('#tool-table button:has-text("send_email")');
  // The count alone cannot tell: role:tool also matched 4 of 12. Wait for the filter's own
  // history entry, or goBack could run before it is pushed and leave the stats state behind.
  await page.waitForFunction(() => window.__viewer.state.query === 'tool:send_email' && location.hash.includes('q=tool:send_email'));
  await waitForCount(page, '4 of 12 events');
  assert.equal(await page.inputValue('#query'), 'tool:send_email');
  assert.doesNotMatch(page.url(), /v=stats/);
  await page.goBack();
  await page.waitForFunction(() => window.__viewer.state.view === 'stats');
  assert.equal(await page.isVisible('#tool-table'), true);
  await page.goBack();
  await page.waitForFunction(() => window.__viewer.state.view === 'events' && window.__viewer.state.query === 'role:tool');
  await page.goForward();
  await page.waitForFunction(() => window.__viewer.state.view === 'stats');
  await context.close();
});

test('keyboard: j/k and arrows move, Enter opens, Esc closes, / focuses the query, ? lists keys', async () => {
  const { page, context } = await openViewer(env);
  await loadSample(page);
  await page.focus('#event-list');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('#row-2', 'aria-selected'), 'true');
  assert.equal(await page.getAttribute('#event-list', 'aria-activedescendant'), 'row-2');
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.getAttribute('#row-0', 'aria-selected'), 'true');
  await page.keyboard.press('G');
  assert.equal(await page.getAttribute('#row-11', 'aria-selected'), 'true');
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #1 '));
  assert.equal(await page.isVisible('#detail'), true);
  // Selection follows into the open pane.
  await page.focus('#event-list');
  await page.keyboard.press('j');
  await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #2 '));
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#detail'), false);
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'query');
  await page.keyboard.type('role:user');
  await page.keyboard.press('Enter');
  await waitForCount(page, '2 of 12 events');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'event-list');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('#help'), true);
  await page.screenshot({ path: join(artifacts, 'keys-help.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help'), false);
  // Number keys switch views (2 is the Transcript, 3 Compare: a one-run trace can be
  // compared with another file); j/k and Enter work in the diagnostics list too.
  await page.keyboard.press('2');
  await page.waitForFunction(() => window.__viewer.state.view === 'transcript');
  await page.keyboard.press('3');
  await page.waitForFunction(() => window.__viewer.state.view === 'compare');
  await page.keyboard.press('4');
  await page.waitForSelector('#tool-table');
  await page.keyboard.press('5');
  await page.waitForSelector('#diagnostics-list .vrow:not(.loading)');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  assert.equal(await page.getAttribute('#diag-1', 'aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__viewer.state.view === 'events' && document.querySelector('#detail-title')?.textContent.startsWith('Event #11 '));
  await page.keyboard.press('Escape');
  await page.keyboard.press('1');
  await page.waitForFunction(() => window.__viewer.state.view === 'events');
  // A hash edited by hand applies too (without `v`, the trace's default view: its transcript).
  await page.evaluate(() => (location.hash = '#e=4&q=role:tool'));
  await page.waitForFunction(() => window.__viewer.state.selected === 4 && window.__viewer.state.query === 'role:tool' && window.__viewer.state.view === 'transcript');
  await context.close();
});

test('accessibility: every control has a name, the list and tabs expose their roles', async () => {
  const { page, context } = await openViewer(env);
  // Tab order: the skip link, then the open controls (the file inputs themselves), …
  const order = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className));
  }
  assert.deepEqual(order, ['skip-link', 'file-input', 'folder-input', 'paste-button', 'sample-select', 'help-button']);
  await loadSample(page);
  await page.click('#row-2');
  await page.waitForSelector('#detail .call');
  const unnamed = await page.evaluate(() => {
    const name = (el) =>
      (el.getAttribute('aria-label') ||
        (el.getAttribute('aria-labelledby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') ||
        [...(el.labels ?? [])].map((l) => l.textContent).join(' ') ||
        (el.tagName === 'BUTTON' || el.tagName === 'A' || el.tagName === 'SUMMARY' ? el.textContent : '') ||
        el.getAttribute('title') ||
        '').trim();
    const controls = [...document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=listbox], [role=tab], [tabindex]:not([tabindex="-1"])')];
    return controls.filter((el) => el.offsetParent !== null && !name(el)).map((el) => el.outerHTML.slice(0, 120));
  });
  assert.deepEqual(unnamed, []);
  assert.equal(await page.getAttribute('#event-list', 'role'), 'listbox');
  assert.equal(await page.getAttribute('#row-2', 'role'), 'option');
  assert.equal(await page.getAttribute('#row-2', 'aria-setsize'), '12');
  assert.equal(await page.getAttribute('#tab-events', 'aria-selected'), 'true');
  assert.equal(await page.getAttribute('#tabs', 'role'), 'tablist');
  assert.equal(await page.getAttribute('#detail', 'aria-labelledby'), 'detail-title');
  // The detail pane took the focus when it opened.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'detail-title');
  // The skip link moves the focus to the list (and leaves the hash alone).
  await page.focus('.skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'event-list');
  assert.doesNotMatch(page.url(), /#event-list/);
  await context.close();
});

test("copy raw JSON puts the event's exact source text on the clipboard", async () => {
  const { page, context } = await openViewer(env);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url.replace(/\/$/, '') });
  await loadSample(page);
  await page.click('#row-3');
  await page.waitForSelector('#copy-raw');
  await page.click('#copy-raw');
  await page.waitForFunction(() => document.querySelector('#copy-raw').textContent === 'Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const sample = JSON.parse(readFileSync(SAMPLE, 'utf8'));
  assert.deepEqual(JSON.parse(copied), sample.messages[3]);
  assert.equal(copied, await page.textContent('#detail pre.raw'));
  await context.close();
});

test('views: stats, diagnostics (click jumps to the event), timeline; screenshots', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context, errors } = await openViewer(env, { colorScheme });
    await loadSample(page);
    await page.click('#row-1');
    await page.waitForSelector('#detail img.thumb');
    // The inline image is a thumbnail from its data: URL; no base64 is shown as text.
    assert.match(await page.getAttribute('#detail img.thumb', 'src'), /^data:image\/png;base64,/);
    assert.doesNotMatch(await page.textContent('#detail .event-body'), /base64/);
    await page.screenshot({ path: join(artifacts, `view-events-${colorScheme}.png`) });

    await page.click('#row-2');
    await page.waitForSelector('#detail .call');
    assert.equal(await page.locator('#detail .call').count(), 2);
    assert.match(await page.textContent('#detail .reasoning summary'), /reasoning/);
    await page.screenshot({ path: join(artifacts, `view-event-calls-${colorScheme}.png`) });

    await page.click('#tab-stats');
    await page.waitForSelector('#tool-table');
    const tools = await page.$$eval('#tool-table tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(tools, [
      ['get_weather', '2', '2', '0', '0'],
      // One failed call: the retry's arguments have a diagnostic, its result succeeded.
      ['send_email', '2', '2', '0', '1'],
      ['book_restaurant', '1', '0', '1', '0'],
    ]);
    await page.screenshot({ path: join(artifacts, `view-stats-${colorScheme}.png`) });

    await page.click('#tab-diagnostics');
    await page.waitForSelector('#diagnostics-list .vrow:not(.loading)');
    assert.match(await page.textContent('#diagnostics-title'), /2 diagnostics: 1 error, 1 warning/);
    await page.screenshot({ path: join(artifacts, `view-diagnostics-${colorScheme}.png`) });
    await page.click('#diagnostics-list .vrow:has-text("arguments-not-json")');
    await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #7 '));
    assert.match(await page.textContent('#detail .event-diagnostics'), /arguments-not-json/);

    await page.click('#tab-timeline');
    await page.waitForSelector('#timeline-canvas');
    assert.match(await page.textContent('#view-other h2'), /12 of 12 events have a time/);
    assert.match(await page.textContent('#timeline-range'), /2024-05-01T09:00:00.000Z → 2024-05-01T09:01:05.000Z/);
    await page.screenshot({ path: join(artifacts, `view-timeline-${colorScheme}.png`) });
    if (colorScheme === 'light') {
      // A click on a mark jumps to its event: the last assistant message, at the right end.
      const box = await page.locator('#timeline-canvas').boundingBox();
      await page.mouse.click(box.x + box.width - 10, box.y + 2 * 22 + 11);
      await page.waitForFunction(() => document.querySelector('#detail-title')?.textContent.startsWith('Event #11 '));
      assert.equal(await page.getAttribute('#tab-events', 'aria-selected'), 'true');
    }
    // Spans: no span events in this format, so no tab.
    assert.equal(await page.locator('#tab-spans').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('loading: paste, several files with a switcher, a folder, and the request log', async () => {
  const { page, context, requests } = await openViewer(env);
  const atReady = requests.length;
  // Paste into the textarea.
  await page.click('#paste-button');
  await page.fill('#paste-text', JSON.stringify([{ role: 'user', content: 'pasted hello' }, { role: 'assistant', content: 'hi' }]));
  await page.click('#paste-load');
  await waitForCount(page, '2 events');
  assert.match(await page.textContent('#event-list'), /pasted hello/);
  // "Read as" parses it again as a named format (forced), and back.
  await page.selectOption('#format-select', 'openai');
  await page.waitForFunction(() => document.querySelector('[data-fact="format"]')?.textContent === 'openai (forced)');
  await waitForCount(page, '2 events');
  await page.selectOption('#format-select', '');
  await page.waitForFunction(() => document.querySelector('[data-fact="format"]')?.textContent === 'openai');
  // A paste event outside a text field loads too.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', '[{"role": "system", "content": "from the clipboard"}]');
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  });
  await waitForCount(page, '1 events');

  // Several files: each is its own trace; a switcher picks one.
  const dir = join(artifacts, 'folder');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'a.json'), JSON.stringify([{ role: 'user', content: 'file a' }]));
  writeFileSync(join(dir, 'sub', 'b.jsonl'), `${JSON.stringify([{ role: 'user', content: 'file b' }, { role: 'assistant', content: 'b2' }])}\n`);
  writeFileSync(join(dir, 'notes.txt'), 'not a trace');
  writeFileSync(join(dir, 'sub', 'c.json.gz'), gzipSync(readFileSync(SAMPLE)));
  await page.setInputFiles('#file-input', [join(dir, 'a.json'), join(dir, 'sub', 'b.jsonl')]);
  // The pasted trace shown before also had 1 event: wait for a.json itself.
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Loaded a.json'));
  await waitForCount(page, '1 events');
  assert.equal(await page.isVisible('#file-switcher'), true);
  assert.deepEqual(await page.$$eval('#file-switcher option', (os) => os.map((o) => o.textContent)), ['a.json (1 events)', 'b.jsonl']);
  await page.selectOption('#file-switcher', '1');
  await waitForCount(page, '2 events');
  assert.match(await page.textContent('#event-list'), /file b/);
  assert.match(page.url(), /f=1/);

  // A folder: its trace files (not notes.txt), each its own trace, by relative path.
  await page.setInputFiles('#folder-input', dir);
  await waitForCount(page, '1 events');
  const names = await page.$$eval('#file-switcher option', (os) => os.map((o) => o.textContent.replace(/ \(.*\)$/, '')));
  assert.deepEqual(names, ['folder/a.json', 'folder/sub/b.jsonl', 'folder/sub/c.json.gz']);
  // A gzipped trace reads like the plain one.
  await page.selectOption('#file-switcher', '2');
  await waitForCount(page, '12 events');
  assert.match(await page.textContent('#status'), /skipped 1 file that is not a trace/);

  // Nothing but the user's own loads after start: no request here but the markdown parser, once.
  assert.deepEqual(requests.slice(atReady).map((u) => new URL(u).pathname), [MARKDOWN]);
  await context.close();
});

test('?url= asks first, then loads same-origin; a cross-origin http URL is refused by the CSP with an explanation', async () => {
  const { page, context, requests } = await openViewer(env, { path: '?url=samples/openai-weather.json#e=3' });
  assert.equal(await page.isVisible('#url-confirm'), true);
  assert.match(await page.textContent('#url-target'), /\/samples\/openai-weather\.json$/);
  assert.equal(requests.filter((u) => new URL(u).pathname.endsWith('openai-weather.json')).length, 0, 'nothing fetched before the user agrees');
  await page.click('#url-load');
  await page.waitForFunction(() => window.__viewer.state.selected === 3);
  assert.equal(requests.filter((u) => new URL(u).pathname.endsWith('openai-weather.json')).length, 1);
  await context.close();

  const otherSite = await startServer(join(root, 'www'), 0);
  try {
    const cross = `${otherSite.url}samples/openai-weather.json`;
    const v = await openViewer(env, { path: `?url=${encodeURIComponent(cross)}` });
    await v.page.click('#url-load');
    await v.page.waitForSelector('#load-error:not([hidden])');
    assert.match(await v.page.textContent('#load-error'), /Content-Security-Policy \(connect-src\) does not allow fetching from http:\/\/127\.0\.0\.1:\d+/);
    await v.context.close();
  } finally {
    await otherSite.close();
  }
});

test('the virtual list scales past the browser height limit: a million rows, first to last', async () => {
  const { page, context } = await openViewer(env);
  const result = await page.evaluate(async () => {
    const { VirtualList } = await import('./vlist.js');
    const root = document.createElement('div');
    root.className = 'vlist';
    root.style.height = '600px';
    document.body.prepend(root);
    const rowFor = (i) => ({ i });
    const list = new VirtualList(root, {
      rowHeight: 30,
      idPrefix: 'big',
      fetchRows: async (start, end) => Array.from({ length: end - start }, (_, k) => rowFor(start + k)),
      renderRow: (row) => document.createTextNode(`row ${row.i}`),
    });
    const settle = () => new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 30));
    const visible = () => {
      const box = root.getBoundingClientRect();
      return [...root.querySelectorAll('.vrow:not(.loading)')]
        .filter((r) => {
          const b = r.getBoundingClientRect();
          return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
        })
        .map((r) => Number(r.dataset.pos));
    };
    list.reset(1_000_000);
    await settle();
    const first = visible();
    const domRows = root.querySelectorAll('.vrow').length;
    root.scrollTop = root.scrollHeight;
    await settle();
    await settle();
    const last = visible();
    list.select(500_000);
    await settle();
    await settle();
    const middle = visible();
    const selected = root.querySelector('.vrow.selected')?.dataset.pos;
    list.select(999_999);
    await settle();
    await settle();
    const end = visible();
    return { first, last, middle, selected, end, domRows, height: root.scrollHeight };
  });
  assert.ok(result.height <= 8_000_000, `sizer ${result.height}px`);
  assert.equal(result.first[0], 0);
  assert.ok(result.domRows < 60, `${result.domRows} rows in the DOM`);
  assert.equal(result.last.at(-1), 999_999, `last visible after scrolling to the end: ${result.last}`);
  assert.ok(result.middle.includes(500_000), `middle: ${result.middle}`);
  assert.equal(result.selected, '500000');
  assert.ok(result.end.includes(999_999), `end: ${result.end}`);
  // Consecutive rows stay consecutive and evenly spaced when scaled.
  for (const run of [result.last, result.middle]) {
    for (let k = 1; k < run.length; k++) assert.equal(run[k], run[k - 1] + 1);
  }
  await context.close();
});

test('?url= on another https origin with CORS loads (connect-src allows https:)', async () => {
  // A throwaway self-signed certificate for 127.0.0.1; Chromium is told to accept it.
  const dir = join(artifacts, 'tls');
  mkdirSync(dir, { recursive: true });
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const body = readFileSync(SAMPLE);
  let served = 0;
  const tls = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    served++;
    // The request carries no cookies or referrer.
    const leaked = req.headers.cookie || req.headers.referer;
    res.writeHead(leaked ? 400 : 200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise((ok) => tls.listen(0, '127.0.0.1', ok));
  const remote = `https://127.0.0.1:${tls.address().port}/shared/trace.json`;
  const insecure = await launch({ extraArgs: ['--ignore-certificate-errors'] });
  try {
    const { page, context, errors } = await openViewer(insecure, { path: `?url=${encodeURIComponent(remote)}#e=4` });
    assert.equal(served, 0);
    assert.equal(await page.textContent('#url-target'), remote);
    await page.click('#url-load');
    await page.waitForFunction(() => window.__viewer.state.selected === 4);
    assert.equal(await page.getAttribute('#row-4', 'aria-selected'), 'true');
    assert.equal(served, 1);
    assert.equal(await page.textContent('[data-fact="events"]'), '12');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await insecure.close();
    await new Promise((ok) => tls.close(ok));
  }
});

test('npm run build writes dist/, which works from a sub-path', async () => {
  const dist = join(root, 'dist');
  assert.ok(existsSync(join(dist, 'index.html')), 'dist/ missing: run npm run build (scripts/build.sh)');
  const sub = await launch({ site: dist, prefix: '/sub/path/' });
  try {
    const { page, context, requests, errors } = await openViewer(sub);
    assert.ok(page.url().endsWith('/sub/path/'));
    await loadSample(page);
    await waitForCount(page, '12 events');
    await page.click('#row-3');
    await page.waitForSelector('#detail .answers');
    const paths = requests.map((u) => new URL(u).pathname);
    assert.ok(paths.every((p) => p.startsWith('/sub/path/')), paths.join('\n'));
    assert.ok(paths.includes('/sub/path/pkg/agent_trace_viewer_bg.wasm'));
    assert.ok(paths.includes('/sub/path/worker.js'));
    assert.deepEqual(errors, []);
    await page.screenshot({ path: join(artifacts, 'dist-subpath.png') });
    await context.close();
  } finally {
    await sub.close();
  }
});
