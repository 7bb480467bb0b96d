// XSS and privacy in real headless Chromium: every fixture of
// tests/fixtures/xss (one per format, an injection payload in every field
// the page shows: content, roles, tool names, arguments, metadata keys and
// values, span names, ids) is loaded and walked through every view — each
// event's detail with every fold opened, every tab, the AgentRun text in
// both styles with all metadata shown, a filter and a query error quoting a
// payload. No script from the trace may run (canary `window.__xss` never
// set, no dialog, no injected element or inline handler), every payload is
// shown as literal text somewhere, no request leaves the page, and the page
// is served with a strict CSP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { launch, openViewer, root, artifacts, showEvents } from './helpers.mjs';
import { CSP } from '../../scripts/serve.mjs';

const fixtures = join(root, 'tests', 'fixtures', 'xss');
const { payloads: PAYLOADS, controls: CONTROLS } = JSON.parse(readFileSync(join(fixtures, 'payloads.json'), 'utf8'));

/** Format id → its fixture (`<id>.json` or `<id>.jsonl`), for every format the core registers. */
const { formats } = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
const FIXTURES = Object.fromEntries(
  formats().map((id) => {
    const name = [`${id}.json`, `${id}.jsonl`].find((f) => existsSync(join(fixtures, f)));
    assert.ok(name, `${id}: no XSS fixture in ${fixtures} (add tests/fixtures/${id}/xss/builder.mjs and run node tests/fixtures/xss/generate.mjs)`);
    return [id, name];
  }),
);

/** Tags a payload would have to create to do anything. The page's own
 * controls (the AgentRun view's options form) are the one exception. */
const DANGEROUS =
  'script, iframe, object, embed, img, svg, math, style, link, meta, base, form:not(#agentrun-form), frame, audio, video, source';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

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
      if (/^\s*(javascript|vbscript):/i.test(href) || /evil\.invalid/.test(href)) badLinks.push(`${e.tagName} ${href}`);
      const style = e.getAttribute('style') ?? '';
      if (/url\(/i.test(style)) badLinks.push(`${e.tagName} style ${style}`);
    }
    return { counts, inlineHandlers, badLinks, base: document.baseURI.split('#')[0], title: document.title };
  }, DANGEROUS);
}

async function assertInert(page, where, shape, { dialogs, requests }) {
  assert.equal(await page.evaluate(() => window.__xss), undefined, `${where}: a payload ran (window.__xss set)`);
  assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
  const now = await pageShape(page);
  assert.deepEqual(now.counts, shape.counts, `${where}: elements were injected`);
  assert.deepEqual(now.inlineHandlers, [], `${where}: inline event handlers in the DOM`);
  assert.deepEqual(now.badLinks, [], `${where}: links to scripts or off-page resources`);
  assert.equal(now.base, shape.base, `${where}: the base URL changed`);
  assert.equal(now.title, shape.title, `${where}: the title changed`);
  const offPage = requests.filter((u) => !u.startsWith(env.server.url) && !u.startsWith('blob:'));
  assert.deepEqual(offPage, [], `${where}: requests left the page`);
}

/** Opens every <details> (the JSON tree builds children on open) and returns the page's visible text. */
async function unfoldedText(page) {
  for (let pass = 0; pass < 12; pass++) {
    const opened = await page.evaluate(() => {
      let n = 0;
      for (const d of document.querySelectorAll('details:not([open])')) {
        d.open = true;
        n++;
      }
      for (const b of document.querySelectorAll('#detail button.link')) {
        if (/^show .* more/.test(b.textContent)) {
          b.click();
          n++;
        }
      }
      return n;
    });
    if (!opened) break;
    await page.waitForTimeout(20);
  }
  return page.evaluate(() => document.body.innerText);
}

test('the page is served with a strict Content-Security-Policy, and it is enforced', async () => {
  const { page, context, response } = await openViewer(env);
  const header = response.headers()['content-security-policy'];
  assert.equal(header, CSP);
  for (const directive of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "style-src 'self'"]) {
    assert.ok(header.includes(directive), `CSP lacks ${directive}`);
  }
  assert.ok(!/unsafe-inline|'unsafe-eval'|\*/.test(header), `CSP too loose: ${header}`);
  // Repeated in a <meta> for static hosts that send no header.
  const meta = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.ok(meta?.includes("default-src 'none'") && meta.includes("script-src 'self' 'wasm-unsafe-eval'"), meta);
  // Enforced: an inline script injected now is refused.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__xss = "inline"';
    document.body.append(s);
  });
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'the CSP let an inline script run');
  await context.close();
});

for (const [format, name] of Object.entries(FIXTURES)) {
  test(`XSS fixture for ${format}: literal through every view, nothing runs, nothing leaves`, async () => {
    const viewer = await openViewer(env);
    const { page, context, errors } = viewer;
    const shape = await pageShape(page);
    await page.setInputFiles('#file-input', join(fixtures, name));
    await showEvents(page);
    assert.equal(await page.textContent('[data-fact="format"]'), format);
    const eventCount = await page.evaluate(() => window.__viewer.state.info.eventCount);
    let seen = await unfoldedText(page);
    await assertInert(page, `${format} / events`, shape, viewer);

    // Each event's detail pane, every fold opened (content, calls, raw JSON tree, source text).
    for (let i = 0; i < eventCount; i++) {
      await page.evaluate((i) => (location.hash = `e=${i}&open=1`), i);
      await page.waitForFunction((i) => document.querySelector('#detail-title')?.textContent.startsWith(`Event #${i} `), i);
      seen += await unfoldedText(page);
      await assertInert(page, `${format} / event ${i}`, shape, viewer);
    }

    // Every other view.
    const tabs = await page.$$eval('#tabs [role=tab]', (ts) => ts.map((t) => t.dataset.view).filter((v) => v !== 'events'));
    assert.ok(tabs.includes('agentrun'), `${format}: the AgentRun text view is offered`);
    for (const view of tabs) {
      await page.click(`#tab-${view}`);
      await page.waitForFunction((v) => document.querySelector('#view-other')?.dataset.view === v && document.querySelector('#view-other').childElementCount > 0, view);
      await page.waitForTimeout(150);
      if (view === 'agentrun') {
        await page.waitForSelector('#agentrun-output pre, #agentrun-error:not([hidden])');
        for (const box of await page.$$('#agentrun-metadata input[type=checkbox]')) await box.check();
        await page.waitForTimeout(300);
        seen += await unfoldedText(page);
        await page.selectOption('#agentrun-style', 'legacy');
        await page.waitForTimeout(300);
      }
      seen += await unfoldedText(page);
      await page.screenshot({ path: join(artifacts, `xss-${format}-${view}.png`) });
      await assertInert(page, `${format} / ${view}`, shape, viewer);
    }

    // A filter and a query error that quote payloads.
    await page.click('#tab-events');
    await page.fill('#query', '"window.__xss"');
    await page.press('#query', 'Enter');
    await page.waitForTimeout(200);
    seen += await unfoldedText(page);
    await assertInert(page, `${format} / filter`, shape, viewer);
    await page.fill('#query', 'after:"<img src=x onerror=window.__xss=99>"');
    await page.press('#query', 'Enter');
    await page.waitForSelector('#query-error:not([hidden])');
    assert.match(await page.textContent('#query-error'), /<img src=x onerror=window\.__xss=99>`? is not a time/);
    await assertInert(page, `${format} / query error`, shape, viewer);

    // Every payload reached the page as text, exactly.
    for (const p of PAYLOADS) assert.ok(seen.includes(p), `${format}: not shown literally anywhere: ${p}`);
    // Control payloads: their visible words are there, whatever notation the page uses for the controls.
    for (const word of ['gnp.exe', 'isolate', 'osc link', 'red']) assert.ok(seen.includes(word), `${format}: ${word} missing`);
    assert.ok(CONTROLS.length > 0);
    assert.deepEqual(errors, [], `${format}: page errors`);
    await page.screenshot({ path: join(artifacts, `xss-${format}.png`) });
    await context.close();
  });
}

test('a load error quoting hostile keys is shown as text', async () => {
  const viewer = await openViewer(env);
  const { page, context } = viewer;
  const shape = await pageShape(page);
  const file = join(artifacts, 'xss-not-a-trace.json');
  writeFileSync(file, JSON.stringify(Object.fromEntries(PAYLOADS.slice(0, 8).map((p, i) => [p, i]))));
  await page.setInputFiles('#file-input', file);
  await page.waitForSelector('#load-error:not([hidden])');
  const message = await page.textContent('#load-error');
  assert.match(message, /not a supported trace format|not a trace/i);
  assert.ok(message.includes(PAYLOADS[0]), message);
  await assertInert(page, 'load error', shape, viewer);
  await context.close();
});
