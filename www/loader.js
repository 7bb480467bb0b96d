// Getting bytes in: files read in Blob.slice chunks (so the page can show
// progress and stay responsive), dropped folders walked with
// webkitGetAsEntry, and a user-requested URL fetched as a stream.

import { Cancelled } from './client.js';

export const CHUNK = 8 * 1024 * 1024;

/** Paths in the order localeCompare gives, from one collator: localeCompare itself looked the
 * locale's rules up again on every call (30 ms to sort a folder of 10,000 files). */
const byPath = new Intl.Collator().compare;

/** File names worth opening from a folder. */
export const TRACE_FILE = /\.(json|jsonl|ndjson|gz|eval)$/i;

/**
 * Reads `file` into one ArrayBuffer, `CHUNK` bytes at a time, calling
 * `onProgress(bytesRead, total)` after each. `signal.aborted` stops it.
 */
export async function readFile(file, onProgress, signal) {
  const out = new Uint8Array(file.size);
  let at = 0;
  onProgress(0, file.size);
  while (at < file.size) {
    if (signal?.aborted) throw new Cancelled();
    const chunk = new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer());
    out.set(chunk, at);
    at += chunk.length;
    if (chunk.length === 0) break;
    onProgress(at, file.size);
  }
  return out.buffer;
}

/**
 * The bytes of many files (a folder of thousands of small run files), in
 * order: read whole, 64 at a time, without asking any file its `size`.
 * Each read is a round trip to the browser's file store (~0.4 ms): one at a
 * time made 10,000 files take twice as long; `size` costs a synchronous
 * round trip of its own (2 s of the page's thread for 10,000), and so does
 * posting a File to the worker. `onProgress(bytesRead)` at most every 50 ms;
 * reading stops when `stop()` says so (Cancelled) or past `limit` bytes
 * (an error saying so).
 */
export async function readFiles(files, onProgress, { stop = () => false, limit = Infinity } = {}) {
  const out = new Array(files.length);
  let done = 0;
  let said = 0;
  let next = 0;
  const reader = async () => {
    while (next < files.length && done <= limit) {
      if (stop()) throw new Cancelled();
      const i = next++;
      out[i] = await files[i].arrayBuffer();
      done += out[i].byteLength;
      if (performance.now() - said >= 50) {
        said = performance.now();
        onProgress(done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, files.length) }, reader));
  if (done > limit) throw new Error(`the ${files.length.toLocaleString('en-US')} files together are larger than one trace can be (${limit.toLocaleString('en-US')} bytes)`);
  onProgress(done);
  return out;
}

/**
 * Fetches a URL the user asked for, with progress. Credentials and the
 * referrer are never sent.
 */
export async function fetchUrl(url, onProgress, signal) {
  const response = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', signal });
  if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks = [];
  let read = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    read += value.length;
    onProgress(read, total);
  }
  const out = new Uint8Array(read);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out.buffer;
}

/**
 * The files of a drop: plain files, and every trace file inside dropped
 * folders (recursively), each with its path relative to the drop. Entries
 * must be taken from the DataTransfer synchronously, inside the drop event.
 */
export function dropEntries(dataTransfer) {
  const items = [...(dataTransfer.items ?? [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? i.webkitGetAsEntry() : null));
  if (entries.length && entries.every(Boolean)) return { entries, files: [] };
  return { entries: [], files: [...(dataTransfer.files ?? [])] };
}

function readAllEntries(dirEntry) {
  const reader = dirEntry.createReader();
  const all = [];
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) return resolve(all);
        all.push(...batch);
        next();
      }, reject);
    next();
  });
}

/**
 * Walks entries; resolves to [{ file, path }] sorted by path, and the names
 * skipped. The folders are walked first, then each file entry's File is
 * asked for, 64 at a time: each is a round trip to the browser (one at a
 * time, a dropped folder of 10,000 files took 6.8 s before its first read).
 */
export async function filesFromEntries(entries) {
  const fileEntries = [];
  async function visit(entry, fromFolder) {
    if (entry.isFile) fileEntries.push({ entry, fromFolder });
    else if (entry.isDirectory) {
      for (const child of await readAllEntries(entry)) await visit(child, true);
    }
  }
  for (const e of entries) await visit(e, false);
  const got = new Array(fileEntries.length);
  for (let at = 0; at < fileEntries.length; at += 64) {
    await Promise.all(fileEntries.slice(at, at + 64).map(({ entry }, k) => new Promise((resolve, reject) => entry.file((file) => resolve((got[at + k] = file)), reject))));
    await new Promise((r) => setTimeout(r, 0));
  }
  const found = [];
  const skipped = [];
  fileEntries.forEach(({ entry, fromFolder }, i) => {
    const file = got[i];
    const path = entry.fullPath.replace(/^\//, '') || file.name;
    if (fromFolder && !TRACE_FILE.test(file.name)) skipped.push(path);
    else found.push({ file, path });
  });
  found.sort((a, b) => byPath(a.path, b.path));
  return { files: found, skipped };
}

/** Files from an <input type=file> (with webkitdirectory or multiple). */
export function filesFromInput(fileList) {
  const all = [...fileList].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
  const fromFolder = all.some((f) => f.file.webkitRelativePath);
  // A folder's paths end with the file's name: tested on the path, not asked of each File again.
  const files = fromFolder ? all.filter((f) => TRACE_FILE.test(f.path)) : all;
  const skipped = fromFolder ? all.filter((f) => !TRACE_FILE.test(f.path)).map((f) => f.path) : [];
  files.sort((a, b) => byPath(a.path, b.path));
  return { files, skipped };
}
