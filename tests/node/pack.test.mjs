// The published package as a user gets it: `npm pack`, installed into a
// fresh project, used from Node (examples/node) and bundled by Vite
// (examples/vite) into a page that runs in headless Chromium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the tarball holds the built package and nothing else', () => {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  for (const f of ['package/package.json', 'package/README.md', 'package/pkg/web/agent_trace_viewer.js', 'package/pkg/web/agent_trace_viewer_bg.wasm',
    'package/pkg/web/agent_trace_viewer.d.ts', 'package/pkg/node/agent_trace_viewer.js', 'package/pkg/node/agent_trace_viewer_bg.wasm', 'package/pkg/node/package.json']) {
    assert.ok(listing.includes(f), `${f} in ${listing.join(' ')}`);
  }
  assert.ok(!listing.some((f) => f.startsWith('package/src/') || f.startsWith('package/tests/')), listing.join(' '));
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
