// The Transcript view in real headless Chromium: a trace read as a chat.
// A fixture written here (OpenAI format) holds a 20,000-character message,
// markdown of every kind with raw HTML, a javascript: link and the XSS
// payloads of tests/fixtures/xss in it, an inline image part, a file edit
// whose old and new strings carry the payloads too, a long tool result and
// a reasoning part with words to search for. Checked: all of it is shown as
// it should be and nothing in it runs or loads; a collapsed result opens;
// search jumps into folded blocks; the selection is shared with the event
// list through the hash; a jump to the last event leaves no blank screen
// above it; and a 100 MB trace scrolls in the transcript with
// no main-thread task over 100 ms. Screenshots in light and dark go to
// test-artifacts/transcript-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { launch, openViewer, root, artifacts } from './helpers.mjs';
import { generate } from '../../scripts/gen-trace.mjs';

const { payloads: PAYLOADS } = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'xss', 'payloads.json'), 'utf8'));
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A valid RGB PNG of `w`×`h` noisy pixels, base64 (noise keeps it long enough to be found in text). */
function png(w, h) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  let seed = 7;
  for (let i = 0; i < raw.length; i++) raw[i] = i % (w * 3 + 1) === 0 ? 0 : (seed = (seed * 1103515245 + 12345) & 0xff);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}
/** A 12×8 PNG, inline in a tool result's text as some tools print them (`local_base64_img: …`). */
const PNG_12x8 = png(12, 8);

const LONG = `${'The quick brown fox jumps over the lazy dog. '.repeat(445)}END-OF-LONG-MESSAGE`;
const MARKDOWN = [
  '# Heading one',
  '',
  'Some *emphasis*, **strong** and `inline code`, and ~~struck~~ text.',
  '',
  '- first item',
  '- second item',
  '',
  '| name | value |',
  '|------|------:|',
  '| alpha | 1 |',
  '| beta | 2 |',
  '',
  '> a block quote',
  '',
  '```python',
  'print("fenced")',
  '```',
  '',
  'A [web link](https://example.com/page) and a [bad link](javascript:window.__xss=100) and ![remote](https://evil.invalid/x.png).',
  '',
  '<script>window.__xss=101</script>',
  '',
  '<img src=x onerror="window.__xss=102">',
  '',
  ...PAYLOADS.flatMap((p) => [p, '']),
].join('\n');
const OLD_CODE = ['def greet(name):', '    return "hi " + name', ...PAYLOADS, 'x = 1'].join('\n');
const NEW_CODE = ['def greet(name: str) -> str:', '    return f"hello {name}"', ...PAYLOADS, 'x = 1'].join('\n');
const RESULT_LINES = Array.from({ length: 40 }, (_, i) => (i === 34 ? 'line 35: NEEDLE-IN-RESULT here' : `line ${i + 1}: output`)).join('\n');

function fixture() {
  return [
    { role: 'system', content: 'You are a careful assistant.' },
    { role: 'user', content: LONG },
    { role: 'assistant', content: MARKDOWN },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Here is a picture:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Let me think. NEEDLE-IN-THINKING is the key.' },
        { type: 'text', text: 'I will edit the file and run the tests.' },
      ],
      tool_calls: [
        { id: 'call_edit', type: 'function', function: { name: 'Edit', arguments: JSON.stringify({ file_path: 'src/greet.py', old_string: OLD_CODE, new_string: NEW_CODE }) } },
        { id: 'call_run', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'pytest -q' }) } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_edit', content: 'The file src/greet.py has been edited.' },
    { role: 'tool', tool_call_id: 'call_run', content: RESULT_LINES },
    { role: 'assistant', content: 'A screenshot of the result:', tool_calls: [{ id: 'call_shot', type: 'function', function: { name: 'screenshot', arguments: '{"region": "all"}' } }] },
    { role: 'tool', tool_call_id: 'call_shot', content: `local_base64_img: ${PNG_12x8}` },
    { role: 'assistant', content: 'Done.' },
  ];
}

const FILE = join(artifacts, 'transcript-fixture.json');
const BIG = join(artifacts, 'generated-100mb.jsonl');

let env;
before(async () => {
  env = await launch();
  writeFileSync(FILE, JSON.stringify(fixture()));
});
after(async () => {
  await env?.close();
});

async function openFixture(options = {}) {
  const viewer = await openViewer(env, options);
  await viewer.page.setInputFiles('#file-input', FILE);
  await viewer.page.waitForSelector('#transcript-list .tr-item[data-loading=false] .tr-turn');
  return viewer;
}

/** Nothing from the trace ran, opened, loaded or got injected. */
async function assertInert(page, { dialogs, requests }) {
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload ran');
  assert.deepEqual(dialogs, []);
  const bad = await page.evaluate(() => {
    const out = [];
    for (const e of document.querySelectorAll('#view-other *')) {
      if (/^(SCRIPT|IFRAME|OBJECT|EMBED|SVG|MATH|STYLE|LINK|META|BASE|FORM|FRAME|AUDIO|VIDEO|SOURCE)$/i.test(e.tagName)) out.push(e.tagName);
      if (e.tagName === 'IMG' && !/^data:image\/png;base64,/.test(e.getAttribute('src'))) out.push(`IMG ${e.getAttribute('src')}`);
      for (const a of e.attributes) if (a.name.startsWith('on')) out.push(`${e.tagName} ${a.name}`);
      const href = e.getAttribute('href') ?? '';
      if (href && !/^(https?:\/\/example\.com\/|#e=\d+$)/.test(href)) out.push(`${e.tagName} href=${href}`);
    }
    return out;
  });
  assert.deepEqual(bad, [], 'injected elements, handlers or links');
  const offPage = requests.filter((u) => !u.startsWith(env.server.url));
  assert.deepEqual(offPage, [], 'requests left the page');
}

test('the transcript is the default view and shows every message in full, markdown rendered, HTML and bad links inert', async () => {
  const viewer = await openFixture();
  const { page, context, errors } = viewer;
  assert.equal(await page.getAttribute('#tab-transcript', 'aria-selected'), 'true');
  // The 20,000-character message, whole.
  const long = await page.locator('.tr-role-user', { hasText: 'END-OF-LONG-MESSAGE' }).first().textContent();
  assert.ok(long.includes(LONG), `the long message is cut (${long.length} characters shown)`);
  assert.ok(LONG.length >= 20_000);

  const md = page.locator('.tr-role-assistant .md').first();
  assert.equal(await md.locator('h3').textContent(), 'Heading one');
  assert.equal(await md.locator('em').first().textContent(), 'emphasis');
  assert.equal(await md.locator('strong').first().textContent(), 'strong');
  assert.equal(await md.locator('del').first().textContent(), 'struck');
  assert.deepEqual(await md.locator('ul > li').allTextContents(), ['first item', 'second item']);
  assert.deepEqual(await md.locator('table th').allTextContents(), ['name', 'value']);
  assert.deepEqual(await md.locator('table td').allTextContents(), ['alpha', '1', 'beta', '2']);
  assert.equal(await md.locator('blockquote').textContent(), 'a block quote');
  assert.equal(await md.locator('.md-code pre code').textContent(), 'print("fenced")');
  assert.equal(await md.locator('.md-code .md-lang').textContent(), 'python');
  assert.ok((await md.locator(':not(pre) > code').allTextContents()).includes('inline code'));
  // Links: http(s) opens in a new tab without opener; javascript: is not a link at all.
  const web = md.locator('a.md-link');
  assert.equal(await web.count(), 1);
  assert.equal(await web.getAttribute('href'), 'https://example.com/page');
  assert.equal(await web.getAttribute('target'), '_blank');
  assert.equal(await web.getAttribute('rel'), 'noopener noreferrer');
  const bad = md.locator('.md-link-inert', { hasText: 'bad link' });
  assert.equal(await bad.evaluate((e) => e.tagName), 'SPAN');
  await bad.click();
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  // Raw HTML is text: the script and the img with onerror are shown, not made.
  const text = await md.textContent();
  assert.ok(text.includes('<script>window.__xss=101</script>'), 'raw <script> not shown as text');
  assert.ok(text.includes('<img src=x onerror="window.__xss=102">'), 'raw <img onerror> not shown as text');
  for (const p of PAYLOADS.filter((p) => !p.startsWith('[markdown link]') && !p.startsWith('&lt;'))) assert.ok(text.includes(p), `payload not shown literally: ${p}`);
  // The remote image is named, never loaded.
  assert.ok(text.includes('[image: remote] (https://evil.invalid/x.png)'));
  await assertInert(page, viewer);

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(artifacts, `transcript-markdown-${scheme}.png`) });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('images, a diff, a command, a collapsed result that expands, thinking folded', async () => {
  const viewer = await openFixture();
  const { page, context, errors } = viewer;
  const list = page.locator('#transcript-list');
  // The image part as an inline data: image, with its size.
  await list.evaluate((l) => (l.scrollTop = l.scrollHeight));
  const figure = page.locator('figure.tr-image').first();
  await page.evaluate(() => window.__viewer);
  await page.locator('.tr-item', { hasText: 'Here is a picture' }).first().scrollIntoViewIfNeeded().catch(() => {});
  const img = page.locator('.tr-role-user img.tr-img');
  await img.first().waitFor({ state: 'attached' });
  assert.equal(await img.first().getAttribute('src'), `data:image/png;base64,${PNG}`);
  await page.waitForFunction(() => /1×1 px/.test(document.querySelector('.tr-role-user figure.tr-image figcaption')?.textContent ?? ''));
  assert.match(await figure.locator('figcaption').textContent(), /image\/png · 0\.\d KB · 1×1 px/);

  // The edit as a diff: removed and added lines, the payloads among the unchanged ones as text.
  const diff = page.locator('.tr-diff').first();
  assert.equal(await diff.locator('.tr-path').textContent(), 'src/greet.py');
  const removed = await diff.locator('.d-del').allTextContents();
  const added = await diff.locator('.d-add').allTextContents();
  assert.deepEqual(removed.map((l) => l.slice(1).trimEnd()), ['def greet(name):', '    return "hi " + name']);
  assert.deepEqual(added.map((l) => l.slice(1).trimEnd()), ['def greet(name: str) -> str:', '    return f"hello {name}"']);
  const context_ = (await diff.locator('.d-ctx').allTextContents()).map((l) => l.slice(1).trimEnd());
  for (const p of PAYLOADS) assert.ok(context_.includes(p.trimEnd()), `payload not in the diff as text: ${p}`);
  assert.match(await diff.locator('.d-counts').textContent(), /\+2 −2/);
  // The shell command as a command.
  assert.equal(await page.locator('.tr-command').first().textContent(), '$ pytest -q');

  // The long result: collapsed to its first lines, with the rest a click away.
  const result = page.locator('.tr-result', { hasText: 'line 1: output' });
  const body = result.locator('.tr-result-body');
  assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), true);
  const folded = await body.evaluate((b) => b.clientHeight);
  assert.ok(folded < (await body.evaluate((b) => b.scrollHeight)), 'the collapsed result shows all of it');
  assert.equal(await result.locator('.tr-expand').textContent(), 'Show all (40 lines)');
  // The result's event in the event list.
  assert.match(await result.locator('.tr-result-head a.event-link').getAttribute('href'), /^#e=6$/);
  await page.screenshot({ path: join(artifacts, 'transcript-tools-light.png') });
  await result.locator('.tr-expand').click();
  assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), false);
  assert.ok((await body.evaluate((b) => b.clientHeight)) > folded);
  assert.equal(await result.locator('.tr-expand').getAttribute('aria-expanded'), 'true');

  // Thinking folded under its label.
  const thinking = page.locator('details.tr-reasoning').first();
  assert.equal(await thinking.evaluate((d) => d.open), false);
  assert.match(await thinking.locator('summary').textContent(), /^Thinking · 44 characters$/);

  // A base64 image inside a tool result's text is shown as an image.
  const shot = page.locator('.tr-result', { hasText: 'local_base64_img' });
  await shot.scrollIntoViewIfNeeded();
  assert.equal(await shot.locator('img.tr-img').getAttribute('src'), `data:image/png;base64,${PNG_12x8}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(artifacts, 'transcript-tools-dark.png') });
  await assertInert(page, viewer);
  assert.deepEqual(errors, []);
  await context.close();
});

test('search jumps between matches and opens the folded blocks that hold one; the selection follows into the event list', async () => {
  const viewer = await openFixture();
  const { page, context, errors } = viewer;
  await page.focus('#transcript-list');
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'transcript-search');
  await page.keyboard.type('NEEDLE-IN');
  await page.keyboard.press('Enter');
  const status = () => page.textContent('#transcript-search-status');
  await page.waitForFunction(() => document.querySelector('#transcript-search-status')?.textContent.startsWith('match 1 of 2 in item 1 of 1 '));
  // The first match is in the folded thinking: it is open now, the match marked.
  const mark = page.locator('mark.tr-hit.current');
  assert.equal(await mark.textContent(), 'NEEDLE-IN');
  assert.equal(await mark.evaluate((m) => m.closest('details.tr-reasoning')?.open), true);
  assert.ok(await mark.isVisible());
  // The next is in the hidden part of the collapsed result: it expands.
  await page.keyboard.press('Enter');
  assert.match(await status(), /^match 2 of 2 in item 1 of 1 item$/);
  await page.waitForFunction(() => document.querySelector('mark.tr-hit.current')?.closest('.tr-result') !== null);
  const body = page.locator('mark.tr-hit.current').locator('xpath=ancestor::div[contains(@class, "tr-result-body")]');
  assert.equal(await body.evaluate((b) => b.classList.contains('collapsed')), false);
  assert.ok(await page.locator('mark.tr-hit.current').isVisible());
  await page.screenshot({ path: join(artifacts, 'transcript-search.png') });
  // Around again: Shift+Enter goes back.
  await page.keyboard.press('Shift+Enter');
  assert.match(await status(), /^match 1 of 2 /);
  assert.equal(await page.locator('mark.tr-hit.current').evaluate((m) => m.closest('details.tr-reasoning') !== null), true);

  // The matched item is the selected event: in the hash, and in the event list.
  await page.waitForFunction(() => location.hash.includes('e=4'));
  await page.click('#tab-events');
  await page.waitForSelector('#event-list .vrow.selected');
  assert.equal(await page.textContent('#event-list .vrow.selected .r-index'), '#4');
  // And back: selecting in the list, the transcript opens on that event.
  await page.click('#row-2');
  await page.click('#tab-transcript');
  await page.waitForSelector('#transcript-list .tr-item.selected');
  assert.equal(await page.getAttribute('#transcript-list .tr-item.selected', 'data-pos'), '2');
  assert.match(page.url(), /#e=2(&|$)/);
  // A reload keeps both.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await assertInert(page, viewer);
  assert.deepEqual(errors, []);
  await context.close();
});

function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

test('a 100 MB trace scrolls in the transcript with no main-thread task over 100 ms', async () => {
  if (!existsSync(BIG) || statSync(BIG).size < 100 * 1024 * 1024) await generate(BIG, 100);
  const { page, context, errors } = await openViewer(env, { initScript: watchLongTasks });
  await page.setInputFiles('#file-input', BIG);
  await page.waitForSelector('#transcript-list .tr-item[data-loading=false] .tr-turn', { timeout: 300_000 });
  const t0 = await page.evaluate(() => performance.now());
  // Scroll as a reader would (wheel steps), then jump: to the middle, near the end, back up.
  for (let i = 0; i < 40; i++) {
    await page.mouse.move(600, 600);
    await page.mouse.wheel(0, 700);
    await page.waitForTimeout(30);
  }
  for (const at of [0.5, 0.97, 0.25]) {
    await page.evaluate((at) => {
      const l = document.getElementById('transcript-list');
      l.scrollTop = (l.scrollHeight - l.clientHeight) * at;
    }, at);
    await page.waitForFunction(() => !document.querySelector('#transcript-list .tr-item[data-loading=true]'), null, { timeout: 60_000 });
    for (let i = 0; i < 10; i++) {
      await page.mouse.wheel(0, -500);
      await page.waitForTimeout(30);
    }
  }
  await page.waitForFunction(() => !document.querySelector('#transcript-list .tr-item[data-loading=true]'), null, { timeout: 60_000 });
  const first = await page.getAttribute('#transcript-list .tr-item:not(:has(.tr-nested)) ', 'data-pos');
  assert.ok(Number(first) > 10_000, `the transcript did not scroll (first item ${first})`);
  const tasks = (await page.evaluate(() => window.__longTasks)).filter((t) => t.start >= t0);
  const over = tasks.filter((t) => t.duration > 100);
  console.log(`# transcript scroll: ${tasks.length} long tasks, longest ${Math.round(Math.max(0, ...tasks.map((t) => t.duration)))} ms`);
  await page.screenshot({ path: join(artifacts, 'transcript-big.png') });
  assert.deepEqual(over, [], `main-thread tasks over 100 ms while scrolling: ${JSON.stringify(over)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a failed result is red; a Claude Code sub-agent run is shown, folded, under the call that started it, with its usage', async () => {
  const { page, context, errors } = await openViewer(env);
  await page.selectOption('#sample-select', 'claude-code-session.jsonl');
  await page.waitForSelector('#transcript-list .tr-item[data-loading=false] .tr-turn');
  // The failed test run's result is red and says so (its tool_result has is_error).
  const failed = page.locator('.tr-call', { hasText: 'cargo test' }).first().locator('.tr-result');
  assert.equal(await failed.evaluate((r) => r.classList.contains('failed')), true);
  assert.match(await failed.locator('.tr-result-label').textContent(), /^Result · failed$/);
  assert.notEqual(await failed.evaluate((r) => getComputedStyle(r).borderTopColor), await page.locator('.tr-call').first().evaluate((c) => getComputedStyle(c).borderTopColor));
  const box = page.locator('.tr-call', { hasText: 'Task' }).locator('details.tr-subagent');
  await box.scrollIntoViewIfNeeded();
  assert.equal(await box.evaluate((d) => d.open), false);
  assert.match(await box.locator('summary').textContent(), /^Sub-agent run #2 · 5 events$/);
  await box.locator('summary').click();
  await page.waitForFunction(() => /tokens$/.test(document.querySelector('details.tr-subagent summary')?.textContent ?? ''));
  assert.match(await box.locator('summary').textContent(), /^Sub-agent run #2 · 5 events · [\d,]+ tokens$/);
  assert.ok((await box.locator('.tr-role-user').textContent()).includes('Find every caller of parse().'));
  assert.equal(await box.locator('.tr-chip-model').first().textContent(), 'claude-sonnet-4-5-20250929');
  await page.screenshot({ path: join(artifacts, 'transcript-subagent.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('j/k move the selection through the turns, stepping over results shown under their calls; Enter opens the event in the list', async () => {
  const { page, context, errors } = await openFixture();
  await page.focus('#transcript-list');
  const selected = () => page.getAttribute('#transcript-list .tr-item.selected', 'data-pos');
  for (let i = 0; i < 5; i++) await page.keyboard.press('j');
  assert.equal(await selected(), '4');
  // Events 5 and 6 are the results of event 4's calls, shown under them: j goes on to 7.
  await page.keyboard.press('j');
  assert.equal(await selected(), '7');
  await page.keyboard.press('k');
  assert.equal(await selected(), '4');
  assert.match(page.url(), /#e=4$/);
  // A hash edited by hand (or back/forward) moves the transcript's selection too.
  await page.evaluate(() => (location.hash = '#e=9'));
  await page.waitForFunction(() => document.querySelector('#transcript-list .tr-item.selected')?.dataset.pos === '9');
  await page.evaluate(() => (location.hash = '#e=4'));
  await page.waitForFunction(() => document.querySelector('#transcript-list .tr-item.selected')?.dataset.pos === '4');
  await page.focus('#transcript-list');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__viewer.state.view === 'events' && document.querySelector('#detail-title')?.textContent.startsWith('Event #4 '));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a jump to the last event fills the screen above it (the list cannot scroll it to the top)', async () => {
  const { page, context, errors } = await openFixture();
  const last = (await page.evaluate(() => window.__viewer.state.info.eventCount)) - 1;
  await page.evaluate((i) => (location.hash = `#e=${i}`), last);
  await page.waitForFunction(() => document.querySelector('#transcript-list .tr-item.selected'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const covered = await page.evaluate(() => {
    const list = document.querySelector('#transcript-list').getBoundingClientRect();
    const at = (y) => document.elementFromPoint(list.left + list.width / 2, y)?.closest('.tr-item') != null;
    return [at(list.top + 4), at(list.top + list.height / 2), at(list.bottom - 4)];
  });
  assert.deepEqual(covered, [true, true, true], 'items cover the top, middle and bottom of the screen');
  const shown = await page.evaluate(() => {
    const list = document.querySelector('#transcript-list').getBoundingClientRect();
    const r = document.querySelector('#transcript-list .tr-item.selected').getBoundingClientRect();
    return r.bottom > list.top && r.top < list.bottom;
  });
  assert.ok(shown, 'the selected event is on screen');
  assert.ok(await page.evaluate(() => document.querySelector('#transcript-list').scrollTop > 0), 'scrolled to the end');
  assert.deepEqual(errors, []);
  await context.close();
});
