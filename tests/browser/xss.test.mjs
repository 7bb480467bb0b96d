// XSS and privacy in real headless Chromium: every fixture of
// tests/fixtures/xss (one per format, an injection payload in every field
// the page shows) is loaded and walked through every view; no script from
// the trace may run (canary `window.__xss` never set, no dialog, no inline
// handler or injected element), the payloads are shown as literal text, no
// request leaves the page, and the page is served with a strict CSP.
//
// To adapt to a new page, edit PAGE (selectors) and VIEWS (how to reach
// every view); the checks stay the same.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, CSP } from '../../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'tests', 'fixtures', 'xss');
const artifacts = join(root, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const { payloads: PAYLOADS, controls: CONTROLS } = JSON.parse(readFileSync(join(fixtures, 'payloads.json'), 'utf8'));

const FIXTURES = {
  openai: 'openai.json',
  docent: 'docent.json',
  openhands: 'openhands.json',
  'agent-catalog': 'agent-catalog.jsonl',
  agentlens: 'agentlens.json',
};

/** The page's selectors. */
const PAGE = {
  ready: 'body[data-ready="true"]',
  fileInput: '#file-input',
  format: '[data-fact="format"]',
  rows: '#events li.event',
  more: '#more',
  rawToggles: '#events li.event .event-head button',
  diagnostics: '#diagnostics',
  query: '#query',
  queryError: '#query-error',
  loadError: '#load-error',
};

/** Ways to reach every view of a loaded trace; each leaves the page showing it. */
const VIEWS = {
  async 'all event rows'(page) {
    while (await page.isVisible(PAGE.more)) await page.click(PAGE.more);
  },
  async 'raw JSON of every event'(page) {
    const toggles = page.locator(PAGE.rawToggles);
    const n = await toggles.count();
    for (let i = 0; i < n; i++) await toggles.nth(i).click();
  },
  async diagnostics(page) {
    await page.evaluate((sel) => document.querySelector(sel)?.setAttribute('open', ''), PAGE.diagnostics);
  },
  async 'details and reasoning opened'(page) {
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.setAttribute('open', '')));
  },
  async 'text filter with a payload'(page) {
    await page.fill(PAGE.query, '"window.__xss"');
    await page.waitForTimeout(150);
    await page.fill(PAGE.query, '');
  },
  async 'query error quoting a payload'(page) {
    await page.fill(PAGE.query, "x<img:src=x onerror=window.__xss=99>");
    await page.waitForSelector(`${PAGE.queryError}:not([hidden])`);
    assert.match(await page.textContent(PAGE.queryError), /<img:/);
    await page.fill(PAGE.query, '');
  },
};

/** Tags a payload would have to create to do anything. */
const DANGEROUS = 'script, iframe, object, embed, img, svg, math, style, link, meta, base, form, frame, audio, video, source';

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

async function openViewer() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  const dialogs = [];
  const errors = [];
  const console = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => console.push(m.text()));
  const response = await page.goto(server.url);
  await page.waitForSelector(PAGE.ready);
  return { page, context, requests, dialogs, errors, console, response };
}

/** What the page itself is made of, to compare after loading hostile data. */
async function pageShape(page) {
  return page.evaluate((dangerous) => {
    const counts = {};
    for (const e of document.querySelectorAll(dangerous)) counts[e.tagName] = (counts[e.tagName] ?? 0) + 1;
    const inlineHandlers = [];
    const badLinks = [];
    for (const e of document.querySelectorAll('*')) {
      for (const a of e.attributes) if (a.name.startsWith('on')) inlineHandlers.push(`${e.tagName} ${a.name}`);
      const href = e.getAttribute('href') ?? e.getAttribute('src') ?? '';
      if (/^\s*(javascript|data|vbscript):/i.test(href) || /evil\.invalid/.test(href)) badLinks.push(`${e.tagName} ${href}`);
      const style = e.getAttribute('style') ?? '';
      if (/url\(/i.test(style)) badLinks.push(`${e.tagName} style ${style}`);
    }
    return { counts, inlineHandlers, badLinks, base: document.baseURI, title: document.title };
  }, DANGEROUS);
}

async function assertInert(page, where, before, { dialogs, requests }) {
  assert.equal(await page.evaluate(() => window.__xss), undefined, `${where}: a payload ran (window.__xss set)`);
  assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
  const after = await pageShape(page);
  assert.deepEqual(after.counts, before.counts, `${where}: elements were injected`);
  assert.deepEqual(after.inlineHandlers, [], `${where}: inline event handlers in the DOM`);
  assert.deepEqual(after.badLinks, [], `${where}: links to scripts or off-page resources`);
  assert.equal(after.base, before.base, `${where}: the base URL changed`);
  assert.equal(after.title, before.title, `${where}: the title changed`);
  const offPage = requests.filter((u) => !u.startsWith(server.url));
  assert.deepEqual(offPage, [], `${where}: requests left the page`);
}

test('the page is served with a strict Content-Security-Policy', async () => {
  const { page, context, response } = await openViewer();
  const header = response.headers()['content-security-policy'];
  assert.equal(header, CSP);
  for (const directive of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'"]) {
    assert.ok(header.includes(directive), `CSP lacks ${directive}`);
  }
  assert.ok(!/unsafe-inline|'unsafe-eval'|\*/.test(header), `CSP too loose: ${header}`);
  // Repeated in a <meta> for static hosts that send no header.
  const meta = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.ok(meta?.includes("default-src 'none'") && meta.includes("script-src 'self' 'wasm-unsafe-eval'"), meta);
  // The policy is enforced: an inline script injected now is refused.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__xss = "inline"';
    document.body.append(s);
  });
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'the CSP let an inline script run');
  await context.close();
});

for (const [format, name] of Object.entries(FIXTURES)) {
  test(`XSS fixture for ${format}: shown literally through every view, nothing runs, nothing leaves`, async () => {
    const viewer = await openViewer();
    const { page, context, errors } = viewer;
    const before = await pageShape(page);
    await page.setInputFiles(PAGE.fileInput, join(fixtures, name));
    await page.waitForSelector(PAGE.rows);
    assert.equal(await page.textContent(PAGE.format), format);
    for (const [view, reach] of Object.entries(VIEWS)) {
      await reach(page);
      await assertInert(page, `${format} / ${view}`, before, viewer);
    }
    // Every payload is on the page as text, exactly (all views opened).
    const text = await page.evaluate(() => document.body.innerText);
    for (const p of PAYLOADS) assert.ok(text.includes(p), `${format}: not shown literally: ${p}`);
    // Control payloads: their visible words are there, whatever notation the page uses for the controls.
    for (const word of ['gnp.exe', 'isolate', 'osc link', 'red']) assert.ok(text.includes(word), `${format}: ${word} missing`);
    assert.ok(CONTROLS.length > 0);
    assert.deepEqual(errors, [], `${format}: page errors`);
    await page.screenshot({ path: join(artifacts, `xss-${format}.png`) });
    await context.close();
  });
}

test('a load error quoting hostile keys is shown as text', async () => {
  const viewer = await openViewer();
  const { page, context } = viewer;
  const before = await pageShape(page);
  const file = join(artifacts, 'xss-not-a-trace.json');
  writeFileSync(file, JSON.stringify(Object.fromEntries(PAYLOADS.slice(0, 8).map((p, i) => [p, i]))));
  await page.setInputFiles(PAGE.fileInput, file);
  await page.waitForSelector(`${PAGE.loadError}:not([hidden])`);
  const message = await page.textContent(PAGE.loadError);
  assert.match(message, /not a supported trace format/);
  assert.ok(message.includes(PAYLOADS[0]), message);
  await assertInert(page, 'load error', before, viewer);
  await context.close();
});
