// OpenHands through the npm package: a conversation folder given as files in
// any order, and the SDK's own views compared with goldens the real
// openhands-sdk 1.58.2 produced (tests/golden/openhands/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFiles, parseTrace } from 'agent-trace-viewer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');

test('a conversation folder, dropped as files in any order, matches the SDK views', () => {
  const golden = JSON.parse(readFileSync(join(root, 'tests/golden/openhands/corpus-conversation-3fdb3160.json'), 'utf8'));
  const dir = join(corpus, 'openhands');
  assert.ok(existsSync(dir), `CORPUS MISSING: ${dir}`);
  const names = golden.files;
  assert.ok(names.length >= 10);
  const files = names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) })).reverse();
  const trace = parseFiles(files, {});
  try {
    assert.equal(trace.format, 'openhands');
    assert.equal(trace.eventCount, golden.runs[0].events.length);
    assert.deepEqual(trace.files().map((f) => f.name), names, 'files in the SDK order');
    assert.equal(trace.eventFile(0), names[0]);
    const ours = trace.llmMessages(0).messages.map((m) => ({ role: m.role, ids: m.toolCallIds ?? m.toolCallId ?? null }));
    const theirs = golden.runs[0].messages.map((m) => ({ role: m.role, ids: m.tool_call_ids ?? m.tool_call_id ?? null }));
    assert.deepEqual(ours, theirs);
    const viewIds = trace.condensedView(0).entries.map((e) => e.id);
    assert.deepEqual(viewIds, golden.runs[0].view.map((v) => v.id ?? v));
  } finally {
    trace.free();
  }
  assert.throws(() => parseFiles([], {}), /no files given/);
  assert.throws(() => parseFiles([{ name: 'x' }], {}), /files\[0\] must be/);
});

test('every openhands corpus file loads', () => {
  const dir = join(corpus, 'openhands');
  for (const name of readdirSync(dir)) {
    const t = parseTrace(readFileSync(join(dir, name)));
    assert.equal(t.format, 'openhands', name);
    // base_state.json holds conversation settings only: run metadata, no events.
    if (name.endsWith('base_state.json')) assert.equal(t.eventCount, 0, name);
    else assert.ok(t.eventCount >= 1, name);
    t.free();
  }
});
