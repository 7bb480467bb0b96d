// www/loader.js outside the browser: chunked reads with progress, and the
// walk of dropped folders (webkitGetAsEntry entries, mocked here the way
// Chromium's FileSystem API behaves: readEntries returns batches until empty).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readFiles, filesFromEntries, filesFromInput, CHUNK } from '../../www/loader.js';

test('readFile reads a Blob in chunks into one ArrayBuffer, reporting progress', async () => {
  const size = CHUNK * 2 + 123;
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7) & 255;
  const seen = [];
  const buffer = await readFile(new Blob([bytes]), (done, total) => seen.push([done, total]));
  assert.ok(buffer instanceof ArrayBuffer);
  assert.deepEqual(new Uint8Array(buffer), bytes);
  assert.deepEqual(seen, [[0, size], [CHUNK, size], [CHUNK * 2, size], [size, size]]);
  await assert.rejects(readFile(new Blob([bytes]), () => {}, { aborted: true }), /cancelled/);
});

test('readFiles reads many files whole, in order, without asking their size; stops when told or past the limit', async () => {
  const blobs = Array.from({ length: 200 }, (_, i) => new Blob([`file ${i}`]));
  // A size asked of a picked file is a synchronous round trip to the browser's file store: never asked.
  const files = blobs.map((b) => Object.defineProperty(b, 'size', { get: () => assert.fail('size asked') }));
  const seen = [];
  const buffers = await readFiles(files, (done) => seen.push(done));
  assert.deepEqual(buffers.map((b) => new TextDecoder().decode(b)), blobs.map((_, i) => `file ${i}`));
  const total = buffers.reduce((n, b) => n + b.byteLength, 0);
  assert.equal(seen.at(-1), total);
  assert.ok(seen.length < files.length, 'progress is not reported per file');
  await assert.rejects(readFiles(files, () => {}, { stop: () => true }), /cancelled/);
  await assert.rejects(readFiles(files, () => {}, { limit: 100 }), /200 files together are larger than/);
});

function fileEntry(fullPath) {
  const name = fullPath.split('/').pop();
  return { isFile: true, isDirectory: false, fullPath, file: (ok) => setTimeout(() => ok(new File([name], name)), 0) };
}

function dirEntry(fullPath, children, batch = 2) {
  return {
    isFile: false,
    isDirectory: true,
    fullPath,
    createReader() {
      let at = 0;
      return {
        readEntries(ok) {
          const out = children.slice(at, at + batch);
          at += batch;
          setTimeout(() => ok(out), 0);
        },
      };
    },
  };
}

test('filesFromEntries walks folders, keeps trace files by relative path, skips the rest', async () => {
  const tree = [
    dirEntry('/runs', [
      fileEntry('/runs/b.jsonl'),
      fileEntry('/runs/README.md'),
      dirEntry('/runs/deep', [fileEntry('/runs/deep/c.json.gz'), fileEntry('/runs/deep/d.ndjson'), fileEntry('/runs/deep/e.png')]),
      fileEntry('/runs/a.json'),
    ]),
    // A file dropped on its own is opened whatever its name.
    fileEntry('/notes.txt'),
  ];
  const { files, skipped } = await filesFromEntries(tree);
  assert.deepEqual(files.map((f) => f.path), ['notes.txt', 'runs/a.json', 'runs/b.jsonl', 'runs/deep/c.json.gz', 'runs/deep/d.ndjson']);
  assert.ok(files.every((f) => f.file instanceof File));
  assert.deepEqual(skipped.sort(), ['runs/README.md', 'runs/deep/e.png']);
});

test('filesFromInput: several files as given; a folder input keeps only trace files', () => {
  const plain = filesFromInput([new File(['x'], 'z.txt'), new File(['y'], 'a.json')]);
  assert.deepEqual(plain.files.map((f) => f.path), ['a.json', 'z.txt']);
  const folder = [new File(['x'], 'a.json'), new File(['y'], 'b.md')];
  Object.defineProperty(folder[0], 'webkitRelativePath', { value: 'dir/a.json' });
  Object.defineProperty(folder[1], 'webkitRelativePath', { value: 'dir/b.md' });
  const picked = filesFromInput(folder);
  assert.deepEqual(picked.files.map((f) => f.path), ['dir/a.json']);
  assert.deepEqual(picked.skipped, ['dir/b.md']);
});
