// Getting bytes in: files read in Blob.slice chunks (so the page can show
// progress and stay responsive), dropped folders walked with
// webkitGetAsEntry, and a user-requested URL fetched as a stream.

import { Cancelled } from './client.js';

export const CHUNK = 8 * 1024 * 1024;

/** File names worth opening from a folder. */
export const TRACE_FILE = /\.(json|jsonl|ndjson|gz)$/i;

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

/** Walks entries; resolves to [{ file, path }] sorted by path, and the names skipped. */
export async function filesFromEntries(entries) {
  const found = [];
  const skipped = [];
  async function visit(entry, fromFolder) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      const path = entry.fullPath.replace(/^\//, '') || file.name;
      if (fromFolder && !TRACE_FILE.test(file.name)) skipped.push(path);
      else found.push({ file, path });
    } else if (entry.isDirectory) {
      for (const child of await readAllEntries(entry)) await visit(child, true);
    }
  }
  for (const e of entries) await visit(e, false);
  found.sort((a, b) => a.path.localeCompare(b.path));
  return { files: found, skipped };
}

/** Files from an <input type=file> (with webkitdirectory or multiple). */
export function filesFromInput(fileList) {
  const all = [...fileList].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
  const fromFolder = all.some((f) => f.file.webkitRelativePath);
  const files = fromFolder ? all.filter((f) => TRACE_FILE.test(f.file.name)) : all;
  const skipped = fromFolder ? all.filter((f) => !TRACE_FILE.test(f.file.name)).map((f) => f.path) : [];
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, skipped };
}
