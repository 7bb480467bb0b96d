// The published package as a user gets it: `npm pack`, installed into a
// fresh project, used from Node (examples/node) and bundled by Vite
// (examples/vite, and examples/embed: the whole viewer embedded) into pages
// that run in headless Chromium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');
let dir;
let tarball;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'atv-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }));
  tarball = join(dir, packed[0].filename);
  // A fresh project that depends on the tarball only.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }));
  execFileSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir });
  cpSync(join(root, 'examples', 'node', 'summarize.mjs'), join(dir, 'node', 'summarize.mjs'), { recursive: true });
  for (const f of ['index.html', 'main.js']) cpSync(join(root, 'examples', 'vite', f), join(dir, 'vite', f));
  for (const f of ['index.html', 'main.js', 'page.css']) cpSync(join(root, 'examples', 'embed', f), join(dir, 'embed', f));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the tarball holds the built package and nothing else', () => {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  for (const f of ['package/package.json', 'package/README.md', 'package/pkg/web/agent_trace_viewer.js', 'package/pkg/web/agent_trace_viewer_bg.wasm',
    'package/pkg/web/agent_trace_viewer.d.ts', 'package/pkg/node/agent_trace_viewer.js', 'package/pkg/node/agent_trace_viewer_bg.wasm', 'package/pkg/node/package.json',
    'package/pkg/viewer/viewer.js', 'package/pkg/viewer/viewer.d.ts', 'package/pkg/viewer/element.js', 'package/pkg/viewer/element.d.ts',
    'package/pkg/viewer/worker.js', 'package/pkg/viewer/style.css', 'package/pkg/viewer/views/index.js']) {
    assert.ok(listing.includes(f), `${f} in ${listing.join(' ')}`);
  }
  // viewer.js's parts (www/viewer/) ship with it.
  for (const part of readdirSync(join(root, 'www', 'viewer'))) {
    assert.ok(listing.includes(`package/pkg/viewer/viewer/${part}`), `viewer/${part} in ${listing.join(' ')}`);
  }
  assert.ok(!listing.some((f) => f.startsWith('package/src/') || f.startsWith('package/tests/')), listing.join(' '));
  // The viewer's page shell and the static site's wasm copy stay out of the package.
  assert.ok(!listing.some((f) => f.startsWith('package/pkg/viewer/pkg/') || f.endsWith('/app.js') || f.endsWith('/index.html')), listing.join(' '));
});

test('the Node example runs against the installed package', () => {
  const file = join(corpus, 'invariant', 'invariantlabs-ai__testing__demo__swarm_agentic_rag__trace_fixed.json');
  assert.ok(existsSync(file), `CORPUS MISSING: ${file}`);
  const out = execFileSync('node', [join(dir, 'node', 'summarize.mjs'), file], { cwd: dir, encoding: 'utf8' });
  assert.match(out, /openai, 1 runs, 8 events, 3 tool calls, 0 errors/);
  // A file with errors: exit status 1 and the error printed.
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '[{"role": 7}]');
  assert.throws(() => execFileSync('node', [join(dir, 'node', 'summarize.mjs'), bad], { cwd: dir, encoding: 'utf8' }), (e) => {
    assert.equal(e.status, 1);
    assert.match(e.stdout, /role-not-string/);
    return true;
  });
});

test('a Vite-built page bundles the package and parses in Chromium', async () => {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync('node', [vite, 'build', '--logLevel', 'warn'], { cwd: join(dir, 'vite'), encoding: 'utf8' });
  const dist = join(dir, 'vite', 'dist');
  assert.ok(existsSync(join(dist, 'index.html')));
  assert.ok(!readFileSync(join(dist, 'index.html'), 'utf8').includes('<script>'), 'no inline script');
  const server = await startServer(dist, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('openai'));
    assert.equal(await page.textContent('#summary'), 'openai: 3 events, 1 tool calls, 1 linked');
    assert.equal(await page.locator('#events li').count(), 3);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a Vite app embeds the whole viewer (custom element and mountViewer) and loads bytes', async () => {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync('node', [vite, 'build', '--logLevel', 'warn'], { cwd: join(dir, 'embed'), encoding: 'utf8' });
  const dist = join(dir, 'embed', 'dist');
  assert.ok(!readFileSync(join(dist, 'index.html'), 'utf8').includes('<script>'), 'no inline script');
  // Served with the viewer's own strict CSP header (no inline scripts or styles, workers from 'self').
  const server = await startServer(dist, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    const requests = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(server.url);
    // Both load() promises resolved with the trace's event count.
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Loaded'), null, { timeout: 60_000 });
    assert.equal(await page.textContent('#status'), 'Loaded 4 and 4 events');
    // Both open on their Transcript, markdown parser and all (the worker's dynamic import, bundled by Vite).
    await page.waitForSelector('agent-trace-viewer .tr-item[data-loading=false] .tr-turn');
    await page.waitForSelector('#mounted .tr-item[data-loading=false] .tr-turn');
    assert.match(await page.textContent('#mounted .tr-list'), /calc/);
    for (const mount of ['agent-trace-viewer', '#mounted']) await page.click(`${mount} [role=tab][data-view=events]`);
    // Rows in both viewers (the element's are in its shadow root; Playwright's selectors pierce it).
    await page.waitForSelector('agent-trace-viewer .event-list .vrow:not(.loading)');
    await page.waitForSelector('#mounted .event-list .vrow:not(.loading)');
    assert.deepEqual(await page.$$eval('#mounted .event-list .vrow .r-index', (els) => els.map((e) => e.textContent)), ['#0', '#1', '#2', '#3']);
    assert.equal(await page.locator('agent-trace-viewer .event-list .vrow').count(), 4);
    assert.equal(await page.evaluate(() => !!document.querySelector('agent-trace-viewer').shadowRoot), true);
    // atv-select fires on a click, from each viewer.
    await page.click('#mounted .event-list .vrow[data-pos="1"]');
    await page.waitForFunction(() => document.getElementById('selected').value.endsWith('(mounted)'));
    assert.equal(await page.evaluate(() => document.getElementById('selected').value), '#1 → calc({"expr":"2+2"}) (mounted)');
    await page.click('agent-trace-viewer .event-list .vrow[data-pos="3"]');
    await page.waitForFunction(() => document.getElementById('selected').value.endsWith('(tag)'));
    assert.equal(await page.evaluate(() => document.getElementById('selected').value), '#3 It is 4. (tag)');
    // Everything came from the app's own origin: the bundle, the worker, the .wasm, the stylesheet.
    const origin = new URL(server.url).origin;
    assert.deepEqual(requests.filter((u) => new URL(u).origin !== origin), []);
    const paths = requests.map((u) => new URL(u).pathname);
    assert.ok(paths.some((p) => p.endsWith('.wasm')), paths.join(' '));
    assert.ok(paths.some((p) => p.endsWith('.css') && p.includes('style')), paths.join(' '));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
