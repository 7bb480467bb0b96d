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

/** A zip of `files` ({ name: text }), stored (no compression). */
function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
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
