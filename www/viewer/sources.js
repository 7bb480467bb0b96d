// What the viewer can open, as sources the worker parses: whatever `load()`
// is handed, the files that make one trace (a folder of one event per file,
// as the core groups them) gathered into one source, and URLs fetched with a
// Content-Security-Policy refusal explained.
//
// A source is { name, path, file? | bytes? | text? | url? | parts?, format? }.

import { fetchUrl } from '../loader.js';

/**
 * Turns what `load()` accepts into a source: bytes (Uint8Array, ArrayBuffer,
 * another typed array), a File or Blob, a URL (object or string, relative to
 * the document), or `{ name, bytes }`.
 */
export function toSource(input) {
  // Copied: the app keeps its buffer (nothing is detached by the transfer to the worker).
  const bytesOf = (b) => {
    if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    if (Object.prototype.toString.call(b) === '[object ArrayBuffer]') return new Uint8Array(b.slice(0));
    return null;
  };
  if (input === null || input === undefined) throw new TypeError('load() needs bytes, a File or Blob, a URL, or { name, bytes }');
  let bytes = bytesOf(input);
  if (bytes) return { name: 'trace', path: 'trace', bytes };
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    const name = typeof input.name === 'string' && input.name ? input.name : 'trace';
    return { name, path: name, file: input };
  }
  if (input instanceof URL || typeof input === 'string') {
    const url = new URL(String(input), document.baseURI);
    if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'blob:' && url.protocol !== 'data:') {
      throw new TypeError(`only http(s), blob: and data: URLs can be loaded, not ${url.protocol}`);
    }
    const name = url.protocol === 'data:' ? 'trace' : decodeURIComponent(url.pathname.split('/').pop() || url.host || 'trace');
    return { name, path: url.protocol === 'data:' ? name : url.href, url: url.href };
  }
  if (typeof input === 'object' && 'bytes' in input) {
    const name = input.name ? String(input.name) : 'trace';
    if (typeof input.bytes === 'string') return { name, path: name, text: input.bytes };
    bytes = bytesOf(input.bytes);
    if (!bytes) throw new TypeError('load({ name, bytes }): bytes must be a Uint8Array, an ArrayBuffer or a string');
    return { name, path: name, bytes, format: input.format };
  }
  throw new TypeError('load() needs bytes, a File or Blob, a URL, or { name, bytes }');
}

/** How much of a file grouping reads when the core asks for it (the core's GROUP_HEAD_BYTES). */
export const GROUP_HEAD_BYTES = 8192;

/**
 * Gathers the files that make one trace (a conversation folder with one
 * event per file) into one source, read as one trace by the core's
 * `parseFiles`; which files those are is the formats' call, asked of the
 * core through `groupFiles(paths, heads)` (the worker's op, passed in). A
 * file whose path names no group but whose records do (an older Claude Code
 * `agent-<id>.jsonl`) is grouped by its first bytes: `headsWanted(paths)`,
 * when given, says which files those are (the core's `groupHeadsWanted`),
 * and only those are read, their first 8 KB. A group of several files
 * becomes `{ name, path, parts }` at the place of its first file, named by
 * the core ("events (12 event files)"); other files, and sources that are
 * not files (URLs, bytes, text), stay as they are.
 */
export async function groupSources(sources, groupFiles, headsWanted = null) {
  const files = sources.filter((s) => s.file);
  if (files.length < 2) return sources;
  const paths = files.map((s) => s.path ?? s.name);
  const wanted = headsWanted ? await headsWanted(paths) : [];
  const groups = await (wanted.length ? groupFiles(paths, await readHeads(files, wanted)) : groupFiles(paths));
  const grouped = new Map();
  for (const g of groups) {
    if (g.files.length < 2) continue;
    const parts = g.files.map((i) => files[i]);
    grouped.set(parts[0], { name: g.name, path: groupPath(parts, g.name), parts });
    for (const p of parts.slice(1)) grouped.set(p, null);
  }
  return asRuns(sources.flatMap((s) => {
    const g = grouped.get(s);
    return g === undefined ? [s] : g ? [g] : [];
  }));
}

/**
 * At least this many files that no format groups, in one load, are read as
 * one trace of runs (a folder of evaluation runs, one per file): a file
 * switcher of thousands is no way to look at them, a runs table is. One more
 * than the run menu lists (trace-display.js): below it, each file is its own trace.
 */
export const RUN_FILES_MIN = 101;

/**
 * The loose files of a load (`sources` after grouping) as one source
 * `{ name, path, parts, asRuns: true }` at the place of the first when
 * there are at least `RUN_FILES_MIN` of them (see there); the page reads
 * them itself (loader.js `readFiles`), the worker joins them with the core's
 * `parseFiles`, and the page falls back to one trace per file when they do
 * not read as one (loading.js).
 */
function asRuns(sources) {
  const loose = sources.filter((s) => s.file);
  // No file's `size` is asked here: each is a synchronous round trip to the browser's
  // file store (2 s of this thread for 10,000 files). Too large together, they fail to read as one.
  if (loose.length < RUN_FILES_MIN) return sources;
  // Named as the core names a group: "evals (10,000 run files)", by the folder the files share.
  const count = `${loose.length.toLocaleString('en-US')} run files`;
  const folder = groupPath(loose, count).split('/').slice(-2, -1)[0];
  const name = folder ? `${folder} (${count})` : count;
  const runs = { name, path: groupPath(loose, name), parts: loose, asRuns: true };
  const first = loose[0];
  return sources.flatMap((s) => (s === first ? [runs] : s.file ? [] : [s]));
}

/**
 * The first bytes of the files at indices `wanted`, by index (null for the
 * others, and for a file that cannot be read: its path decides), 64 reads
 * at a time (each read is a round trip to the browser's file store, ~1 ms:
 * one at a time took half as long again, all at once no less). A file no
 * longer than the head is read whole: slicing it costs as much again.
 */
async function readHeads(files, wanted) {
  const heads = new Array(files.length).fill(null);
  let next = 0;
  const reader = async () => {
    while (next < wanted.length) {
      const i = wanted[next++];
      const file = files[i]?.file;
      if (!file) continue;
      try {
        const head = file.size > GROUP_HEAD_BYTES ? file.slice(0, GROUP_HEAD_BYTES) : file;
        heads[i] = new Uint8Array(await head.arrayBuffer());
      } catch {
        // Unreadable (gone, or a permission): grouped by its path.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, wanted.length) }, reader));
  return heads;
}

/**
 * Where a group of files is, for the file switcher: the folder its files
 * share and the core's name ("run-1/events (12 event files)", not
 * "run-1/events/events (…)"), or the name alone when they share none.
 */
function groupPath(parts, name) {
  // The shared folder as a string prefix ending in '/', shortened a folder at a time: no
  // path is split (splitting 10,000 was most of a 60 ms task).
  const first = parts[0].path ?? parts[0].name;
  let prefix = first.slice(0, first.lastIndexOf('/') + 1);
  for (const p of parts) {
    const path = p.path ?? p.name;
    while (prefix && !path.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  const common = prefix ? prefix.slice(0, -1).split('/') : [];
  if (common.length && name.startsWith(`${common[common.length - 1]} `)) common.pop();
  return [...common, name].join('/');
}

/** Fetches a URL; a Content-Security-Policy refusal is explained, not just "failed". */
export async function fetchWithPolicyCheck(url, onProgress) {
  let blocked = null;
  const listen = (e) => {
    if (e.violatedDirective.startsWith('connect-src')) blocked = e;
  };
  document.addEventListener('securitypolicyviolation', listen);
  try {
    return await fetchUrl(url, onProgress);
  } catch (e) {
    await new Promise((r) => setTimeout(r, 0));
    if (blocked) {
      throw new Error(
        `the page's Content-Security-Policy (connect-src) does not allow fetching from ${new URL(url).origin}. ` +
          'The viewer fetches only from its own site and https: addresses; see docs/security.md#content-security-policy to allow another origin.',
      );
    }
    throw new Error(`fetching ${url} failed: ${e.message} (the server must allow cross-origin requests, CORS, for the viewer to read it)`);
  } finally {
    document.removeEventListener('securitypolicyviolation', listen);
  }
}

/**
 * The bytes of a loaded source, read again for an export the user asked
 * for: a File is read, kept bytes and pasted text copied, a URL fetched
 * again (the one it was loaded from). A trace made of several files has no
 * single file to export: that throws, saying so.
 */
export async function sourceBytes(source) {
  if (source.parts) throw new Error(`${source.name} is ${source.parts.length} files read as one trace: there is no one file to export`);
  if (source.file) return new Uint8Array(await source.file.arrayBuffer());
  if (source.text !== undefined) return new TextEncoder().encode(source.text);
  if (source.bytes) return source.bytes.slice();
  if (source.url) return new Uint8Array(await fetchWithPolicyCheck(source.url, () => {}));
  throw new Error(`${source.name}: its bytes are not available`);
}
