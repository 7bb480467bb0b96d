// `openArchiveLazily` through the npm package, as a caller that is not the
// viewer's worker uses it: an Inspect .eval opens on its directory, an
// archive no format reads lazily throws with `code: 'not-lazy'` (the caller
// reads it whole then), and a broken one throws without that code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openArchiveLazily, archiveTailNeeded, parseTrace } from 'agent-trace-viewer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A little-endian record of `size` bytes: `fields` are [offset, width (2 or 4), value]. */
function record(size, fields) {
  const b = Buffer.alloc(size);
  for (const [at, width, value] of fields) (width === 2 ? b.writeUInt16LE : b.writeUInt32LE).call(b, value, at);
  return b;
}

/** A zip of `files` ({ name: text }), stored (no compression): local headers, central directory, end record. */
function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const [crc, size, nameLength] = [crc32(data), data.length, nameBytes.length];
    locals.push(record(30, [[0, 4, 0x04034b50], [4, 2, 20], [14, 4, crc], [18, 4, size], [22, 4, size], [26, 2, nameLength]]), nameBytes, data);
    centrals.push(record(46, [[0, 4, 0x02014b50], [4, 2, 20], [6, 2, 20], [16, 4, crc], [20, 4, size], [24, 4, size], [28, 2, nameLength], [42, 4, offset]]), nameBytes);
    offset += 30 + nameLength + size;
  }
  const directory = Buffer.concat(centrals);
  const count = centrals.length / 2;
  const end = record(22, [[0, 4, 0x06054b50], [8, 2, count], [10, 2, count], [12, 4, directory.length], [16, 4, offset]]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** Opens `bytes` lazily as the worker does: the tail the core asks for, then the directory. */
function open(bytes) {
  const need = archiveTailNeeded(bytes, bytes.length);
  return openArchiveLazily(need > 0 ? bytes.subarray(bytes.length - need) : bytes, bytes.length);
}

test('an Inspect .eval opens lazily on its directory', () => {
  const bytes = new Uint8Array(readFileSync(join(root, 'tests', 'fixtures', 'inspect', 'generated.eval')));
  const archive = open(bytes);
  try {
    assert.ok(archive.entries().some((e) => e.name === 'header.json'));
    assert.ok(archive.headsWanted().length > 0);
  } finally {
    archive.free();
  }
});

test("an archive no format reads lazily throws with code 'not-lazy', and reads whole", () => {
  const line = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] });
  const bytes = storedZip({ 'trace.jsonl': `${line}\n` });
  assert.throws(() => open(bytes), (e) => e instanceof Error && e.code === 'not-lazy' && /read it whole/.test(e.message));
  const whole = parseTrace(bytes);
  try {
    assert.equal(whole.format, 'openai');
    assert.equal(whole.eventCount, 2);
  } finally {
    whole.free();
  }
});

test("a broken archive throws an error that is not 'not-lazy'", () => {
  const bytes = storedZip({ 'trace.jsonl': '{}\n' });
  const broken = bytes.slice(0, bytes.length - 10);
  assert.throws(() => open(broken), (e) => e instanceof Error && e.code === undefined);
});
