// The viewer embedded in another page, in Chromium: mountViewer() and
// <agent-trace-viewer>. Several viewers on one page stay independent (state,
// worker, element ids, keyboard, URL); load() is race-free (early calls
// wait, a later load wins whatever order the work finishes in); destroy()
// frees everything; a shadow root keeps styles apart; the page's CSP holds.
//
// The host page is a fixture written next to a link of every www/ file, so
// the viewer is served exactly as it ships, with the CSP header.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, root, artifacts } from './helpers.mjs';
import { CSP } from '../../scripts/serve.mjs';

const site = join(artifacts, 'embed-site');
let env;

const HOST_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>a page that embeds the viewer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="host.css">
<script type="module" src="host.js"></script>
</head>
<body>
<h1>Host page</h1>
<button type="button" class="button" id="host-button">a button of the page</button>
<!-- Decoys: the page's own elements with the ids the viewer uses inside itself. -->
<div id="event-list">the page's own #event-list</div>
<p id="status">the page's own #status</p>
<div id="a" class="box"></div>
<div id="b" class="box"></div>
<div id="c" class="box"></div>
</body>
</html>
`;

// Loud page styles: none may reach a viewer in a shadow root; the page's variables reach no viewer.
const HOST_CSS = `:root { --bg: rgb(255, 0, 0); --fg: rgb(0, 255, 0); }
.box { height: 420px; margin: 4px 0; }
.button { background: rgb(255, 0, 0); border-radius: 0; }
.vrow { color: rgb(0, 0, 255); }
`;

const HOST_JS = `import { mountViewer } from './viewer.js';
import './element.js';
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(\`\${e.violatedDirective} \${e.blockedURI}\`));
window.mountViewer = mountViewer;
window.record = (target) => {
  const log = [];
  for (const type of ['atv-load', 'atv-select', 'atv-error']) target.addEventListener(type, (e) => log.push({ type, detail: JSON.parse(JSON.stringify(e.detail)) }));
  return log;
};
document.body.dataset.hostReady = 'true';
`;

const TINY = JSON.stringify([
  { role: 'user', content: 'What is 2+2?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"expr": "2+2"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: '4' },
]);
const WEATHER = readFileSync(join(root, 'www', 'samples', 'openai-weather.json'), 'utf8');

before(async () => {
  rmSync(site, { recursive: true, force: true });
  mkdirSync(site, { recursive: true });
  for (const f of readdirSync(join(root, 'www'))) {
    if (f !== 'index.html' && f !== 'app.js') symlinkSync(join(root, 'www', f), join(site, f));
  }
  writeFileSync(join(site, 'index.html'), HOST_HTML);
  writeFileSync(join(site, 'host.css'), HOST_CSS);
  writeFileSync(join(site, 'host.js'), HOST_JS);
  env = await launch({ site });
});

after(async () => {
  await env?.close();
});

async function openHost() {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 1500 } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  const workers = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => requests.push(r.url()));
  page.on('worker', (w) => workers.push(w));
  const response = await page.goto(env.server.url);
  await page.waitForSelector('body[data-host-ready="true"]');
  return { page, context, errors, requests, workers, response };
}

/** Event indices of the rows a viewer shows (a CSS selector for its mount; Playwright pierces shadow roots). */
async function rows(page, mount) {
  // A conversation opens on its Transcript: show the events first.
  const tab = page.locator(`${mount} [role=tab][data-view=events]`);
  await tab.waitFor();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await page.waitForSelector(`${mount} .event-list .vrow:not(.loading)`);
  return page.$$eval(`${mount} .event-list .vrow .r-index`, (els) => els.map((e) => Number(e.textContent.slice(1))));
}

test('two viewers on one page load different traces and stay independent', async () => {
  const { page, context, errors } = await openHost();
  const result = await page.evaluate(
    async ([tiny, weather]) => {
      const a = window.mountViewer(document.getElementById('a'));
      const b = window.mountViewer(document.getElementById('b'));
      window.a = a;
      window.b = b;
      window.logA = window.record(a.element);
      window.logB = window.record(b.element);
      const enc = new TextEncoder();
      const [ia, ib] = await Promise.all([a.load(enc.encode(tiny)), b.load({ name: 'weather.json', bytes: enc.encode(weather) })]);
      return { a: ia.eventCount, b: ib.eventCount, nameB: ib.name, format: ia.format };
    },
    [TINY, WEATHER],
  );
  assert.deepEqual(result, { a: 3, b: 12, nameB: 'weather.json', format: 'openai' });
  assert.deepEqual(await rows(page, '#a'), [0, 1, 2]);
  assert.equal((await rows(page, '#b')).length, 12);
  // No id is used twice on the page (the page's decoys included), and the decoys are untouched.
  const ids = await page.$$eval('[id]', (els) => els.map((e) => e.id));
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), []);
  assert.equal(await page.textContent('body > #status'), "the page's own #status");
  assert.equal(await page.textContent('body > #event-list'), "the page's own #event-list");
  // Labels, descriptions and active descendants point inside their own viewer.
  const dangling = await page.evaluate(() => {
    const bad = [];
    for (const box of [document.getElementById('a'), document.getElementById('b')]) {
      for (const node of box.querySelectorAll('[aria-labelledby], [aria-describedby], [aria-controls], label[for]')) {
        const refs = [node.getAttribute('aria-labelledby'), node.getAttribute('aria-describedby'), node.getAttribute('aria-controls'), node.getAttribute('for')].filter(Boolean).join(' ');
        for (const id of refs.split(/\s+/)) if (id && !box.contains(document.getElementById(id)) && id !== box.querySelector('.detail')?.getAttribute('aria-labelledby')) bad.push(`${box.id}: ${id}`);
      }
    }
    return bad;
  });
  assert.deepEqual(dangling, []);

  // A filter in one viewer leaves the other alone.
  assert.equal(await page.evaluate(() => window.b.setQuery('role:tool')), 4);
  await page.waitForFunction(() => document.querySelector('#b .event-list .vrow:not(.loading)') && document.querySelectorAll('#b .event-list .vrow').length === 4);
  assert.match(await page.textContent('#b [id$="match-count"]'), /^4 of 12 events$/);
  assert.equal(await page.textContent('#a [id$="match-count"]'), '3 events');
  await assert.rejects(page.evaluate(() => window.b.setQuery('role:tool OR')), /OR` needs a term after it/);

  // Clicking a row selects in that viewer only, fires atv-select on it, and leaves the page's URL alone.
  await page.click('#a .event-list .vrow[data-pos="1"]');
  await page.waitForFunction(() => window.logA.some((e) => e.type === 'atv-select'));
  const logs = await page.evaluate(() => ({ a: window.logA, b: window.logB }));
  const selects = logs.a.filter((e) => e.type === 'atv-select').map((e) => e.detail);
  assert.deepEqual(selects.map((d) => [d.index, d.role]), [[1, 'assistant']]);
  assert.match(selects[0].summary, /calc/);
  assert.equal(typeof selects[0].kind, 'string');
  assert.deepEqual(logs.b.filter((e) => e.type === 'atv-select'), []);
  assert.deepEqual(logs.a.filter((e) => e.type === 'atv-load').map((e) => e.detail.eventCount), [3]);
  assert.deepEqual(logs.b.filter((e) => e.type === 'atv-load').map((e) => e.detail.eventCount), [12]);
  assert.equal(await page.evaluate(() => [window.a.selected, window.b.selected].join()), '1,');
  assert.equal(new URL(page.url()).hash, '');
  await page.waitForSelector('#a .detail:not([hidden]) .call');
  assert.equal(await page.isVisible('#b .detail'), false);

  // Keys act in the viewer that has the focus, not in the other nor on the page.
  await page.focus('#a .event-list');
  await page.keyboard.press('j');
  await page.waitForFunction(() => window.a.selected === 2);
  assert.equal(await page.evaluate(() => window.b.selected), null);
  await page.focus('#host-button');
  await page.keyboard.press('k');
  assert.equal(await page.evaluate(() => window.a.selected), 2);

  // select() from the app: one event per change, told once.
  await page.evaluate(() => window.b.select(6));
  await page.waitForFunction(() => window.logB.some((e) => e.type === 'atv-select'));
  assert.deepEqual(await page.evaluate(() => window.logB.filter((e) => e.type === 'atv-select').map((e) => e.detail.index)), [6]);
  await assert.rejects(page.evaluate(() => window.a.select(99)), /no event 99/);
  assert.equal(new URL(page.url()).hash, '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('load() called before the viewer is ready waits for it; bad input rejects and is shown', async () => {
  const { page, context, errors } = await openHost();
  const result = await page.evaluate(async (tiny) => {
    const v = window.mountViewer(document.getElementById('a'));
    let readyFirst = false;
    v.ready.then(() => (readyFirst = true));
    // Same task as the mount: the worker has not even started.
    const p = v.load(new TextEncoder().encode(tiny));
    const calledBeforeReady = !readyFirst;
    const info = await p;
    return { calledBeforeReady, eventCount: info.eventCount, readyFirst };
  }, TINY);
  assert.deepEqual(result, { calledBeforeReady: true, eventCount: 3, readyFirst: true });
  assert.deepEqual(await rows(page, '#a'), [0, 1, 2]);

  // A trace that cannot be read: load() rejects with the parser's message, the viewer shows it, atv-error fires.
  const failed = await page.evaluate(async () => {
    const v = window.mountViewer(document.getElementById('b'));
    const log = window.record(v.element);
    const message = await v.load(new TextEncoder().encode('{"not": ')).then(() => 'resolved', (e) => e.message);
    const wrongType = await v.load(42).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    return { message, wrongType, log };
  });
  assert.notEqual(failed.message, 'resolved');
  assert.match(failed.wrongType, /^TypeError: load\(\) needs bytes/);
  assert.deepEqual(failed.log.map((e) => e.type), ['atv-error']);
  assert.equal(failed.log[0].detail.message, failed.message);
  assert.equal(await page.isVisible('#b .load-error'), true);
  assert.ok((await page.textContent('#b .load-error')).includes(failed.message));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a superseded load rejects with AbortError and the later load wins, whatever finishes first', async () => {
  const { page, context, errors } = await openHost();
  // Slow traces: held back by the test, released in the order each case needs.
  const held = new Map();
  await page.route('**/slow/**', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    held.get(name)?.(route);
  });
  const hold = (name) => {
    const routed = new Promise((ok) => held.set(name, ok));
    const release = async () => (await routed).fulfill({ status: 200, contentType: 'application/json', body: name.startsWith('tiny') ? TINY : WEATHER });
    return { routed, release };
  };

  // Case 1: the first load (a URL) is still fetching when bytes are loaded; it finishes last.
  const first = hold('tiny-1.json');
  await page.evaluate(() => {
    window.v = window.mountViewer(document.getElementById('a'));
    window.log = window.record(window.v.element);
    window.outcomes = [];
    const track = (name, p) => p.then((info) => window.outcomes.push(`${name} resolved ${info.eventCount}`), (e) => window.outcomes.push(`${name} rejected ${e.name}`));
    window.track = track;
    track('first', window.v.load('slow/tiny-1.json'));
  });
  await first.routed;
  await page.evaluate((weather) => {
    window.track('second', window.v.load(new TextEncoder().encode(weather)));
  }, WEATHER);
  await page.waitForFunction(() => window.outcomes.length === 2);
  assert.deepEqual(await page.evaluate(() => window.outcomes), ['first rejected AbortError', 'second resolved 12']);
  await first.release();
  // The first trace arrives after all: nothing changes.
  await page.waitForTimeout(500);
  assert.equal((await rows(page, '#a')).length, 12);
  assert.equal(await page.textContent('#a [data-fact="events"]'), '12');
  assert.deepEqual(await page.evaluate(() => window.log.filter((e) => e.type === 'atv-load').map((e) => e.detail.eventCount)), [12]);

  // Case 2: two slow loads; the superseded one's data arrives first and is never shown.
  const third = hold('tiny-3.json');
  const fourth = hold('weather-4.json');
  await page.evaluate(() => {
    window.outcomes = [];
    window.log.length = 0;
    window.track('third', window.v.load('slow/tiny-3.json'));
  });
  await third.routed;
  await page.evaluate(() => {
    window.track('fourth', window.v.load('slow/weather-4.json'));
  });
  await fourth.routed;
  await page.waitForFunction(() => window.outcomes.length === 1);
  assert.deepEqual(await page.evaluate(() => window.outcomes), ['third rejected AbortError']);
  await third.release();
  await page.waitForTimeout(500);
  assert.deepEqual(await page.evaluate(() => window.log.filter((e) => e.type === 'atv-load')), []);
  assert.equal(await page.textContent('#a [data-fact="events"]'), '12');
  await fourth.release();
  await page.waitForFunction(() => window.outcomes.length === 2);
  assert.deepEqual(await page.evaluate(() => window.outcomes), ['third rejected AbortError', 'fourth resolved 12']);
  assert.deepEqual(await page.evaluate(() => window.log.filter((e) => e.type === 'atv-load').map((e) => e.detail.name)), ['weather-4.json']);

  // Case 3: many loads in one task: only the last one resolves.
  const outcomes = await page.evaluate(async (tiny) => {
    const enc = new TextEncoder();
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => window.v.load({ name: `t${n}.json`, bytes: enc.encode(tiny) })));
    return results.map((r) => (r.status === 'fulfilled' ? `${r.value.name} ${r.value.eventCount}` : r.reason.name));
  }, TINY);
  assert.deepEqual(outcomes, ['AbortError', 'AbortError', 'AbortError', 't4.json 3']);
  assert.deepEqual(await rows(page, '#a'), [0, 1, 2]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('destroy() stops the worker, removes the DOM and rejects what was pending', async () => {
  const { page, context, errors, workers } = await openHost();
  await page.evaluate(async (tiny) => {
    window.keep = window.mountViewer(document.getElementById('a'));
    window.v = window.mountViewer(document.getElementById('b'));
    await Promise.all([window.keep.load(new TextEncoder().encode(tiny)), window.v.load(new TextEncoder().encode(tiny))]);
  }, TINY);
  assert.equal(workers.length, 2);
  const closed = workers.map((w) => new Promise((ok) => w.once('close', () => ok(w))));
  const result = await page.evaluate(async (weather) => {
    const pending = window.v.load(new TextEncoder().encode(weather)).then(() => 'resolved', (e) => e.name);
    window.v.destroy();
    const after = await window.v.load(new TextEncoder().encode(weather)).then(() => 'resolved', (e) => e.name);
    return { pending: await pending, after, children: document.getElementById('b').childElementCount };
  }, WEATHER);
  assert.deepEqual(result, { pending: 'AbortError', after: 'AbortError', children: 0 });
  const first = await Promise.race([...closed, new Promise((ok) => setTimeout(() => ok(null), 5000))]);
  assert.ok(first, 'a worker closed');
  // Which worker is whose cannot be told from outside (both start in parallel, in either
  // order), so: the other viewer must still answer through its worker, and that worker
  // must stay open.
  const answer = await page.evaluate(() =>
    Promise.race([window.keep.setQuery('role:tool'), new Promise((ok) => setTimeout(() => ok('no answer'), 5000))]),
  );
  assert.equal(answer, 1, 'the other viewer still filters through its own worker');
  const both = await Promise.race([Promise.all(closed).then(() => true), new Promise((ok) => setTimeout(() => ok(false), 1000))]);
  assert.equal(both, false, 'only the destroyed viewer’s worker closed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('in a shadow root the page’s styles and ids stay out; outside one the viewer keeps to itself', async () => {
  const { page, context, errors } = await openHost();
  await page.evaluate(async (tiny) => {
    window.s = window.mountViewer(document.getElementById('a'), { shadow: true });
    await window.s.load(new TextEncoder().encode(tiny));
  }, TINY);
  const shadow = await page.evaluate(() => {
    const root = document.getElementById('a').shadowRoot;
    const css = (node, prop) => getComputedStyle(node).getPropertyValue(prop).trim();
    const help = root.querySelector('.top .button');
    const row = root.querySelector('.event-list .vrow');
    return {
      stylesInDocument: [...document.styleSheets].map((s) => s.href && new URL(s.href).pathname),
      linkInShadow: [...root.querySelectorAll('link[rel=stylesheet]')].map((l) => new URL(l.href).pathname),
      helpBackground: css(help, 'background-color'),
      helpRadius: css(help, 'border-radius'),
      rowColor: css(row, 'color'),
      viewerBg: css(root.querySelector('.atv'), '--bg'),
      // Its ids are plain, and do not clash with the page's own.
      listId: root.querySelector('.event-list').id,
      pageList: document.getElementById('event-list').textContent,
      hostButtonRadius: css(document.getElementById('host-button'), 'border-radius'),
    };
  });
  assert.deepEqual(shadow.stylesInDocument, ['/host.css']);
  assert.deepEqual(shadow.linkInShadow, ['/style.css']);
  assert.notEqual(shadow.helpBackground, 'rgb(255, 0, 0)');
  assert.equal(shadow.helpRadius, '6px');
  assert.notEqual(shadow.rowColor, 'rgb(0, 0, 255)');
  assert.equal(shadow.viewerBg, '#ffffff');
  assert.equal(shadow.listId, 'event-list');
  assert.equal(shadow.pageList, "the page's own #event-list");
  assert.equal(shadow.hostButtonRadius, '0px');
  assert.deepEqual(await rows(page, '#a'), [0, 1, 2]);

  // Outside a shadow root: the stylesheet is added to the document once, and styles only the viewer.
  await page.evaluate(async (tiny) => {
    const l1 = window.mountViewer(document.getElementById('b'));
    const l2 = window.mountViewer(document.getElementById('c'));
    await Promise.all([l1.load(new TextEncoder().encode(tiny)), l2.load(new TextEncoder().encode(tiny))]);
  }, TINY);
  const light = await page.evaluate(() => {
    const css = (node, prop) => getComputedStyle(node).getPropertyValue(prop).trim();
    return {
      sheets: [...document.styleSheets].map((s) => s.href && new URL(s.href).pathname),
      viewerBg: css(document.querySelector('#b .atv'), '--bg'),
      pageBg: css(document.documentElement, '--bg'),
      hostButtonRadius: css(document.getElementById('host-button'), 'border-radius'),
      bodyMargin: css(document.body, 'margin-top'),
    };
  });
  assert.deepEqual(light.sheets, ['/host.css', '/style.css']);
  assert.equal(light.viewerBg, '#ffffff');
  assert.equal(light.pageBg, 'rgb(255, 0, 0)');
  assert.equal(light.hostButtonRadius, '0px');
  assert.equal(light.bodyMargin, '8px');
  assert.deepEqual(errors, []);
  await context.close();
});

test('<agent-trace-viewer src> loads its URL, follows src changes, and frees its worker when removed', async () => {
  const { page, context, errors, workers } = await openHost();
  await page.evaluate(() => {
    const el = document.createElement('agent-trace-viewer');
    el.id = 'tag';
    el.setAttribute('src', 'samples/openai-weather.json');
    window.tagLog = window.record(el);
    document.body.append(el);
  });
  await page.waitForFunction(() => window.tagLog.some((e) => e.type === 'atv-load'));
  assert.equal((await rows(page, '#tag')).length, 12);
  assert.equal(await page.evaluate(() => window.tagLog[0].detail.eventCount), 12);
  assert.equal(await page.evaluate(() => document.getElementById('tag').info.format), 'openai');
  // No controls unless asked for.
  assert.equal(await page.locator('#tag .open-controls').count(), 0);
  // A new src loads it.
  await page.evaluate(() => (document.getElementById('tag').src = 'samples/docent-calculator.json'));
  await page.waitForFunction(() => window.tagLog.filter((e) => e.type === 'atv-load').length === 2);
  assert.equal(await page.evaluate(() => window.tagLog[1].detail.format), 'docent');
  // Methods forward to the viewer.
  assert.equal(await page.evaluate(async () => (await document.getElementById('tag').load(new TextEncoder().encode('[{"role":"user","content":"hi"}]'))).eventCount), 1);
  assert.equal(await page.evaluate(() => document.getElementById('tag').viewer.info.eventCount), 1);
  // Declarative, with controls.
  await page.evaluate(() => {
    document.getElementById('c').innerHTML = '<agent-trace-viewer id="tag2" controls src="samples/openai-weather.json"></agent-trace-viewer>';
  });
  assert.equal((await rows(page, '#tag2')).length, 12);
  assert.equal(await page.locator('#tag2 .open-controls input[type=file]').count(), 2);
  assert.equal(workers.length, 2);
  const closed = new Promise((ok) => workers[0].once('close', ok));
  await page.evaluate(() => document.getElementById('tag').remove());
  await closed;
  assert.deepEqual(errors, []);
  await context.close();
});

test('the embedding page keeps its CSP: no inline scripts or styles, no violations, nothing off-site', async () => {
  const { page, context, errors, requests, response } = await openHost();
  assert.equal(response.headers()['content-security-policy'], CSP);
  await page.evaluate(async (weather) => {
    const light = window.mountViewer(document.getElementById('a'), { controls: true });
    const shadow = window.mountViewer(document.getElementById('b'), { shadow: true, controls: true });
    document.getElementById('c').innerHTML = '<agent-trace-viewer src="samples/openhands-events.jsonl"></agent-trace-viewer>';
    await light.load(new TextEncoder().encode(weather));
    await shadow.load(new TextEncoder().encode(weather));
    // Every view of both, to run all their rendering.
    for (const v of [light, shadow]) {
      for (const tab of v.element.shadowRoot?.querySelectorAll('[role=tab]') ?? v.element.querySelectorAll('[role=tab]')) {
        tab.click();
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await light.select(2);
  }, WEATHER);
  await rows(page, '#c agent-trace-viewer');
  const found = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean)];
    return {
      inlineScripts: roots.reduce((n, r) => n + r.querySelectorAll('script:not([src])').length, 0),
      styleElements: roots.reduce((n, r) => n + r.querySelectorAll('style').length, 0),
      violations: window.violations,
    };
  });
  assert.deepEqual(found, { inlineScripts: 0, styleElements: 0, violations: [] });
  const origin = new URL(env.server.url).origin;
  assert.deepEqual(requests.filter((u) => new URL(u).origin !== origin), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a conversation opens on its Transcript, or on the events with defaultView: "events"', async () => {
  const { page, context, errors } = await openHost();
  await page.evaluate(async (tiny) => {
    const bytes = new TextEncoder().encode(tiny);
    await window.mountViewer(document.getElementById('a')).load(bytes);
    await window.mountViewer(document.getElementById('b'), { defaultView: 'events' }).load(bytes);
  }, TINY);
  const selectedTab = (mount) => page.$eval(`${mount} [role=tab][aria-selected=true]`, (t) => t.dataset.view);
  assert.equal(await selectedTab('#a'), 'transcript');
  await page.waitForSelector('#a .tr-item[data-loading=false] .tr-turn');
  assert.match(await page.textContent('#a .tr-list'), /What is 2\+2\?/);
  assert.equal(await selectedTab('#b'), 'events');
  await page.waitForSelector('#b .event-list .vrow:not(.loading)');
  assert.deepEqual(errors, []);
  await context.close();
});
