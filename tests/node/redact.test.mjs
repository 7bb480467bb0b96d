// `redact(bytes, options)` through the npm package: the Redacted object's
// shape (bytes a Uint8Array, the RedactReport the Rust tests check), a file
// that reads back as its format with no secret left, gzip read first, an
// Inspect .eval written back as a zip that reads as the same log, and the
// refusals (a bad regex, unknown options, a broken zip) as Errors that say why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace, redact } from 'agent-trace-viewer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bytes = readFileSync(join(root, 'tests', 'fixtures', 'redact', 'secrets.json'));
const secrets = Object.values(JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'redact', 'secrets.list.json'), 'utf8')));

test('redact: the same format back, every secret masked, the report counts them', () => {
  const r = redact(bytes);
  assert.deepEqual(Object.keys(r).sort(), ['bytes', 'examples', 'report']);
  assert.ok(r.bytes instanceof Uint8Array);
  assert.deepEqual(Object.keys(r.report).sort(), ['kinds', 'stringsChanged', 'stringsUnread']);
  assert.equal(r.report.kinds.reduce((n, k) => n + k.occurrences, 0), 13);
  const text = new TextDecoder().decode(r.bytes);
  for (const s of secrets) assert.ok(!text.includes(s) && !text.includes(JSON.stringify(s).slice(1, -1)), s);
  const t = parseTrace(r.bytes);
  try {
    assert.equal(t.format, 'openai');
    assert.equal(t.diagnostics().length, 0);
    assert.match(t.events(1, 1)[0].text, /^Use my OpenAI key \[REDACTED:openai-key:1\]/);
  } finally {
    t.free();
  }
  // The examples name each kind's first placeholders with the secret masked: never the secret.
  const kinds = r.report.kinds.map((k) => k.kind);
  assert.deepEqual([...new Set(r.examples.map((e) => e.placeholder.split(':')[1]))].sort(), [...kinds].sort());
  for (const e of r.examples) {
    assert.match(e.placeholder, /^\[REDACTED:[a-z-]+:[1-3]\]$/);
    assert.match(e.masked, /… \(\d+ characters\)$/);
    for (const s of secrets) assert.ok(!e.masked.includes(s), e.masked);
  }
  // gzip is read first; the output is the plain text.
  assert.deepEqual(redact(gzipSync(bytes)).bytes, r.bytes);
});

test('redact: user patterns, and refusals that say why', () => {
  const r = redact(bytes, { noBuiltin: true, literals: ['http_get'], patterns: ['call_(\\d)'] });
  const text = new TextDecoder().decode(r.bytes);
  assert.ok(text.includes('sk-proj-'), 'built-in kinds off');
  assert.ok(!text.includes('http_get') && text.includes('call_[REDACTED:custom:1]'));
  assert.throws(() => redact(bytes, { patterns: ['('] }), /not a valid regex/);
  assert.throws(() => redact(bytes, { patern: ['x'] }), /invalid redact options/);
  assert.throws(() => redact(Buffer.from('PK\x03\x04....')), /zip input could not be read/);
});

test('redact: an Inspect .eval stays a zip that reads as the same log', () => {
  const evalBytes = readFileSync(join(root, 'www', 'samples', 'inspect-arith.eval'));
  const r = redact(evalBytes, { literals: ['Use the add tool'] });
  assert.deepEqual([...r.bytes.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
  assert.ok(r.report.kinds.some((k) => k.kind === 'literal'));
  const [a, b] = [parseTrace(evalBytes), parseTrace(r.bytes)];
  try {
    assert.deepEqual([b.format, b.runCount, b.eventCount], [a.format, a.runCount, a.eventCount]);
  } finally {
    a.free();
    b.free();
  }
});
