// Sharing from the page, in Chromium: "Export redacted…" previews every
// kind of secret of the redaction fixture (counts, placeholders, the secret
// shown masked only), downloads `<name>.redacted.json`, which loads back as
// the same format with placeholders and no secret; an Inspect .eval stays a
// zip of its files, redacted. "Bundle…" downloads a .zip (read back here from
// its central directory, every member's CRC-32 and sizes checked), which,
// unzipped and served by a static server, opens on its redacted trace
// asking for nothing outside it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { launch, openViewer, root, artifacts } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { redact } = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
const SECRETS_FILE = join(root, 'tests', 'fixtures', 'redact', 'secrets.json');
const secretsBytes = readFileSync(SECRETS_FILE);
const secrets = Object.values(JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'redact', 'secrets.list.json'), 'utf8')));

/**
 * Extracts a zip into `out` by its central directory (stored or deflated
 * members), failing on a member whose local header, size or CRC-32 does not
 * match what the directory says: an independent reader of what the page wrote.
 */
function extractZip(bytes, out) {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'end of central directory');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    assert.equal(bytes.readUInt32LE(at), 0x02014b50, `central directory entry ${i}`);
    const [method, crc, size, length] = [bytes.readUInt16LE(at + 10), bytes.readUInt32LE(at + 16), bytes.readUInt32LE(at + 20), bytes.readUInt32LE(at + 24)];
    const [nameLength, extra, comment, local] = [bytes.readUInt16LE(at + 28), bytes.readUInt16LE(at + 30), bytes.readUInt16LE(at + 32), bytes.readUInt32LE(at + 42)];
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extra + comment;
    assert.equal(bytes.readUInt32LE(local), 0x04034b50, `${name}: local header`);
    assert.equal(bytes.subarray(local + 30, local + 30 + bytes.readUInt16LE(local + 26)).toString('utf8'), name, `${name}: same name in its local header`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const stored = bytes.subarray(start, start + size);
    const data = method === 0 ? stored : method === 8 ? inflateRawSync(stored) : assert.fail(`${name}: method ${method}`);
    assert.equal(data.length, length, `${name}: size`);
    assert.equal(crc32(data), crc, `${name}: CRC-32`);
    assert.ok(!name.startsWith('/') && !name.split('/').includes('..'), `${name}: stays inside the folder`);
    if (name.endsWith('/')) continue;
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(join(out, name), data);
    names.push(name);
  }
  return names;
}

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

/** Opens `files` ([{ name, buffer }]) with the page's file input and waits for the first to show. */
/** Files are shown sorted by name: the first of `files` must sort first. */
async function open(page, files) {
  await page.setInputFiles('#file-input', files.map(({ name, buffer }) => ({ name, mimeType: 'application/json', buffer })));
  await page.waitForFunction((n) => document.querySelector('#status').textContent.startsWith(`Loaded ${n}`), files[0].name);
}

/** No secret of the fixture, whole or JSON-escaped, in `text`. */
function assertNoSecret(text, where) {
  for (const s of secrets) assert.ok(!text.includes(s) && !text.includes(JSON.stringify(s).slice(1, -1)), `${where}: a secret is present: ${s.slice(0, 8)}…`);
}

test('export redacted: a preview of every kind (secrets masked), the download loads back as the same format with no secret', async () => {
  const { page, context, errors } = await openViewer(env);
  assert.ok(await page.isHidden('#share-controls'), 'nothing to share before a trace is loaded');
  await open(page, [{ name: 'secrets.json', buffer: secretsBytes }]);
  await page.click('#export-button');
  await page.waitForSelector('#export-kinds');
  const expected = redact(secretsBytes).report.kinds;
  const rows = await page.$$eval('#export-kinds tbody tr', (trs) => trs.map((tr) => [tr.dataset.kind, ...[...tr.querySelectorAll('td.num')].map((td) => Number(td.textContent))]));
  assert.deepEqual(rows, expected.map((k) => [k.kind, k.occurrences, k.distinct]));
  assert.ok(rows.length >= 11, `every kind of the fixture is listed (${rows.length})`);
  const dialogText = await page.textContent('#export-dialog');
  assertNoSecret(dialogText, 'the preview');
  assert.match(dialogText, /\[REDACTED:openai-key:1\] ← sk-p… \(\d+ characters\)/);
  assert.match(await page.textContent('#export-scope'), /^secrets\.json in its own format \(openai\)/);
  // One run: the whole file is the run; nothing else to pick.
  assert.equal(await page.$eval('#export-scope-select', (s) => s.selectedOptions[0].textContent), 'the whole file');
  assert.ok(await page.isDisabled('#export-scope-select'));
  await page.screenshot({ path: join(artifacts, 'share-export-preview.png') });

  // A literal of the user's: the options changed, so the download waits for a new preview.
  await page.fill('#export-literals', 'http_get');
  assert.ok(await page.isDisabled('#export-download'));
  await page.click('#export-preview-button');
  await page.waitForSelector('#export-kinds tr[data-kind="literal"]');
  assert.equal(await page.textContent('#export-download'), 'Download secrets.redacted.json');

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-download')]);
  assert.equal(download.suggestedFilename(), 'secrets.redacted.json');
  const saved = readFileSync(await download.path());
  const text = saved.toString('utf8');
  assertNoSecret(text, 'the download');
  assert.ok(text.includes('[REDACTED:openai-key:1]') && text.includes('[REDACTED:literal:1]') && !text.includes('http_get'));
  assert.deepEqual(saved, Buffer.from(redact(secretsBytes, { noBuiltin: false, patterns: [], literals: ['http_get'] }).bytes));
  await page.click('#export-close');

  // The download loads back: the same format and event count, the placeholders shown, no secret.
  const before = await page.evaluate(() => ({ format: window.__viewer.state.info.format, events: window.__viewer.state.info.eventCount }));
  await open(page, [{ name: 'secrets.redacted.json', buffer: saved }]);
  const after = await page.evaluate(() => ({ format: window.__viewer.state.info.format, events: window.__viewer.state.info.eventCount, diagnostics: window.__viewer.state.info.diagnosticCount }));
  assert.deepEqual(after, { ...before, diagnostics: 0 });
  await page.waitForFunction(() => document.body.innerText.includes('[REDACTED:'));
  assertNoSecret(await page.evaluate(() => document.body.innerText), 'the page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('export redacted: an Inspect .eval stays a zip of its files, redacted, and loads back as the same log', async () => {
  const { page, context, errors } = await openViewer(env);
  const evalBytes = readFileSync(join(root, 'www', 'samples', 'inspect-arith.eval'));
  await open(page, [{ name: 'inspect-arith.eval', buffer: evalBytes }]);
  const before = await page.evaluate(() => ({ format: window.__viewer.state.info.format, runs: window.__viewer.state.info.runCount, events: window.__viewer.state.info.eventCount }));
  await page.click('#export-button');
  // The sample holds no key: the user's literal (its system prompt) is what is masked.
  await page.fill('#export-literals', 'Use the add tool');
  await page.click('#export-preview-button');
  await page.waitForSelector('#export-kinds tr[data-kind="literal"]');
  assert.equal(await page.textContent('#export-download'), 'Download inspect-arith.redacted.eval');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-download')]);
  assert.equal(download.suggestedFilename(), 'inspect-arith.redacted.eval');
  const saved = readFileSync(await download.path());
  assert.deepEqual(saved, Buffer.from(redact(evalBytes, { literals: ['Use the add tool'] }).bytes));
  // Still a zip of the same files (read back by the test's own reader, CRCs checked), none holding the literal.
  const out = join(artifacts, 'redacted-eval');
  rmSync(out, { recursive: true, force: true });
  const members = extractZip(saved, out);
  assert.ok(members.includes('header.json') && members.some((m) => m.startsWith('samples/')), members.join(', '));
  for (const m of members) assert.ok(!readFileSync(join(out, m), 'utf8').includes('Use the add tool'), `${m} still holds the literal`);
  assert.ok(members.some((m) => readFileSync(join(out, m), 'utf8').includes('[REDACTED:literal:1]')));
  await page.click('#export-close');
  await open(page, [{ name: 'inspect-arith.redacted.eval', buffer: saved }]);
  const after = await page.evaluate(() => ({ format: window.__viewer.state.info.format, runs: window.__viewer.state.info.runCount, events: window.__viewer.state.info.eventCount }));
  assert.deepEqual(after, before);
  await page.waitForFunction(() => document.body.innerText.includes('[REDACTED:literal:1]'));
  await page.screenshot({ path: join(artifacts, 'share-export-eval.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('bundle: a redacted .zip of the viewer and the open traces, served from its folder, opens on the first', async () => {
  const { page, context, errors, requests } = await openViewer(env);
  const otel = readFileSync(join(root, 'www', 'samples', 'otel-genai-agent.json'));
  await open(page, [{ name: 'secrets.json', buffer: secretsBytes }, { name: 'trace-otel.json', buffer: otel }]);
  // The transcript's markdown module may arrive any time after the first transcript is shown: not counted.
  const asked = () => requests.filter((u) => !u.endsWith('/vendor/markdown.js'));
  const beforeClick = asked().length;
  await page.click('#bundle-button');
  await page.check('#bundle-redact');
  await page.click('#bundle-download');
  // Each file's preview, then the button asks to download.
  await page.waitForFunction(() => document.querySelector('#bundle-download').textContent === 'Download the redacted bundle (.zip)');
  const headings = await page.$$eval('#bundle-preview h3', (hs) => hs.map((h) => h.textContent));
  assert.deepEqual(headings, ['secrets.json', 'trace-otel.json'], 'a preview per trace');
  const kinds = await page.$$eval('#bundle-preview .bundle-preview-file:first-of-type tbody tr', (trs) => trs.map((tr) => tr.dataset.kind));
  assert.deepEqual(kinds, redact(secretsBytes).report.kinds.map((k) => k.kind));
  assert.equal(asked().length, beforeClick, 'nothing is fetched before the download is asked for');
  assertNoSecret(await page.textContent('#bundle-dialog'), 'the bundle preview');
  await page.screenshot({ path: join(artifacts, 'share-bundle-preview.png') });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bundle-download')]);
  assert.equal(download.suggestedFilename(), 'secrets-bundle.zip');
  // The files fetched on the click: the manifest and the viewer's files, from this site only.
  const fetched = asked().slice(beforeClick).map((u) => new URL(u));
  assert.ok(fetched.every((u) => u.origin === new URL(env.server.url).origin), 'only the page\'s own site');
  assert.ok(fetched.some((u) => u.pathname === '/files.json'));
  const zip = join(artifacts, 'page-bundle.zip');
  const out = join(artifacts, 'page-bundle');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await download.saveAs(zip);
  const members = extractZip(readFileSync(zip), out);
  assert.ok(members.includes('index.html'), 'the bundle opens from its index.html');
  const manifest = JSON.parse(readFileSync(join(root, 'www', 'files.json'), 'utf8')).files;
  for (const f of manifest) assert.ok(existsSync(join(out, 'viewer', f)), `viewer/${f} is in the bundle`);
  assert.deepEqual(JSON.parse(readFileSync(join(out, 'viewer', 'samples', 'index.json'), 'utf8')).map((s) => s.file), ['secrets.json', 'trace-otel.json']);
  assertNoSecret(readFileSync(join(out, 'viewer', 'samples', 'secrets.json'), 'utf8'), 'the bundled trace');
  await context.close();
  assert.deepEqual(errors, []);

  const served = await launch({ site: out, viewer: join(out, 'viewer') });
  try {
    const ctx = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const p = await ctx.newPage();
    const seen = [];
    const pageErrors = [];
    p.on('request', (r) => seen.push(r.url()));
    p.on('pageerror', (e) => pageErrors.push(e.message));
    await p.goto(served.server.url);
    await p.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('Loaded secrets.json'), null, { timeout: 60_000 });
    await p.waitForFunction(() => document.body.innerText.includes('[REDACTED:'));
    assertNoSecret(await p.evaluate(() => document.body.innerText), 'the bundle\'s page');
    assert.equal(await p.evaluate(() => window.__viewer.state.info.format), 'openai');
    assert.deepEqual(seen.filter((u) => !u.startsWith(served.server.url)), [], 'requests outside the bundle');
    await p.screenshot({ path: join(artifacts, 'share-bundle-opened.png') });
    assert.deepEqual(pageErrors, []);
    await ctx.close();
  } finally {
    await served.close();
  }
});

test('export redacted: one run of a JSON Lines file alone (its line, checked to read back as that run); a JSON document offers the whole file only, saying why', async () => {
  const { page, context, errors } = await openViewer(env);
  const line = (text) => JSON.stringify({ messages: [{ role: 'user', content: text }, { role: 'assistant', content: 'ok' }] });
  const key = 'sk-proj-Q1w2E3r4T5y6U7i8O9p0AaSsDdFfGgHh';
  const jsonl = `${line('first run, no secret')}\n${line(`my key is ${key}`)}\n${line('third run')}\n`;
  await open(page, [{ name: 'runs.jsonl', buffer: Buffer.from(jsonl) }]);
  await page.click('#export-button');
  await page.waitForSelector('#export-kinds');
  await page.selectOption('#export-scope-select', '1');
  await page.waitForFunction(() => document.querySelector('#export-download').textContent === 'Download runs.run-1.redacted.jsonl');
  assert.match(await page.textContent('#export-scope-note'), /^Run #1: its \d+ bytes of lines, which read back as that run alone\./);
  assert.deepEqual(await page.$$eval('#export-kinds tbody tr', (trs) => trs.map((tr) => tr.dataset.kind)), ['openai-key']);
  await page.screenshot({ path: join(artifacts, 'share-export-run.png') });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-download')]);
  assert.equal(download.suggestedFilename(), 'runs.run-1.redacted.jsonl');
  const saved = readFileSync(await download.path(), 'utf8');
  assert.equal(saved, `${line('my key is [REDACTED:openai-key:1]')}\n`);
  await page.click('#export-close');

  // A JSON document of several runs: each run is part of one value, so only the whole file.
  const doc = JSON.stringify([JSON.parse(line('a')), JSON.parse(line('b'))]);
  await open(page, [{ name: 'runs.json', buffer: Buffer.from(doc) }]);
  await page.click('#export-button');
  await page.waitForSelector('#export-kinds, #export-preview .redact-summary');
  await page.selectOption('#export-scope-select', '1');
  await page.waitForFunction(() => document.querySelector('#export-scope-note').textContent.startsWith('Run #1 cannot be exported alone'));
  assert.match(await page.textContent('#export-scope-note'), /one JSON document/);
  assert.ok(await page.isDisabled('#export-download'));
  assert.deepEqual(errors, []);
  await context.close();
});
