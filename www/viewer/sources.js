// What the viewer can open, as sources the worker parses: whatever `load()`
// is handed, an OpenHands conversation folder's event files gathered into
// one source, and URLs fetched with a Content-Security-Policy refusal
// explained.
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

/** An OpenHands conversation's event file: `event-00012-<id>.json` (also inside longer names). */
const EVENT_FILE = /^(.*?)(?:^|[_/])event-\d{5}-[^/]*\.json$/;

/**
 * Gathers the event files of an OpenHands conversation folder (one event per
 * file) into one source, read as one trace by the core's `parseFiles`; other
 * files stay separate traces.
 */
export function groupConversations(sources) {
  const groups = new Map();
  const out = [];
  for (const s of sources) {
    const m = s.file ? EVENT_FILE.exec(s.path ?? s.name) : null;
    if (!m) {
      out.push(s);
      continue;
    }
    if (!groups.has(m[1])) {
      const group = { name: '', path: m[1], parts: [] };
      groups.set(m[1], group);
      out.push(group);
    }
    groups.get(m[1]).parts.push(s);
  }
  return out.flatMap((s) => {
    if (!s.parts) return [s];
    if (s.parts.length === 1) return s.parts;
    const dir = s.path.replace(/[_/]+$/, '').split('/').pop();
    return [{ name: `${dir || 'conversation'} (${s.parts.length} event files)`, path: s.path, parts: s.parts }];
  });
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
          'The viewer fetches only from its own site and https: addresses; see docs/viewer.md to allow another origin.',
      );
    }
    throw new Error(`fetching ${url} failed: ${e.message} (the server must allow cross-origin requests, CORS, for the viewer to read it)`);
  } finally {
    document.removeEventListener('securitypolicyviolation', listen);
  }
}
