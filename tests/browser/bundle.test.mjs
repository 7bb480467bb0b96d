// `agent-trace-viewer bundle` (the real binary) writes a folder that a static
// server serves and that opens on its first trace, redacted: no secret of the
// input reaches the page, the other traces are in its samples menu, and the
// page asks for nothing outside the folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launch, root, artifacts } from './helpers.mjs';

const BIN = join(root, 'target', 'debug', 'agent-trace-viewer');
const OUT = join(artifacts, 'bundle');
const secrets = Object.values(JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'redact', 'secrets.list.json'), 'utf8')));

let env;
before(async () => {
  if (!existsSync(BIN)) {
    const built = spawnSync('cargo', ['build', '--features', 'cli', '--bin', 'agent-trace-viewer'], { cwd: root, stdio: 'inherit' });
    assert.equal(built.status, 0, 'cargo build of the CLI');
  }
  rmSync(OUT, { recursive: true, force: true });
  const r = spawnSync(BIN, ['bundle', '-o', OUT, '--viewer', join(root, 'www'), '--redact', 'tests/fixtures/redact/secrets.json', 'www/samples/otel-genai-agent.json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  env = await launch({ site: OUT, viewer: join(OUT, 'viewer') });
});
after(async () => {
  await env?.close();
});

test('a bundle served by a static server opens on its (redacted) trace', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('Loaded secrets.json'), null, { timeout: 60_000 });
  // The trace shown: its events, its Transcript (a conversation's default view) or another view.
  // (Any of them shown: a selector list would wait on its first match, the hidden event list.)
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#event-list .vrow:not(.loading), #transcript-list .tr-item[data-loading=false], [data-view] .vrow:not(.loading)')].some((e) => e.getClientRects().length > 0),
  );
  const body = await page.evaluate(() => document.body.innerText);
  for (const s of secrets) assert.ok(!body.includes(s), `a secret reached the page: ${s.slice(0, 12)}…`);
  assert.deepEqual(await page.$$eval('#sample-select option', (os) => os.map((o) => o.value).filter(Boolean)), ['secrets.json', 'otel-genai-agent.json']);
  const t = await page.evaluate(() => window.__viewer.state.info.format);
  assert.equal(t, 'openai');
  const outside = requests.filter((u) => !u.startsWith(env.server.url));
  assert.deepEqual(outside, [], 'requests outside the bundle');
  await page.screenshot({ path: join(artifacts, 'bundle.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
