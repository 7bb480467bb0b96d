// The whole viewer as a component: `mountViewer(element, options)` builds
// its DOM inside `element` (or a shadow root), starts its own Web Worker
// (worker.js, which owns the wasm core) and returns a handle. This thread
// only renders what is visible, so it never blocks, whatever the file's size.
// The standalone page (app.js) is one mount with every page-level option on;
// several viewers on one page share nothing (state, worker, element ids).
//
// With `hash`, state that a link should carry lives in the URL hash:
//   #e=42&q=role:tool&role=assistant&v=events&r=3&f=1
// (selected event, filter text, role menu, view, run, file). Without it the
// same state is kept in the viewer, so it behaves the same.

import { TraceWorker, Cancelled } from './client.js';
import { el, clear } from './dom.js';
import { renderRow, renderDetail } from './events.js';
import { VirtualList } from './vlist.js';
import { fetchUrl, dropEntries, filesFromEntries, filesFromInput } from './loader.js';
import { viewsFor, viewById } from './views/index.js';

const ROW_HEIGHT = 30;
/** The stylesheet that goes with this module (an asset URL once bundled). */
const STYLESHEET = new URL('./style.css', import.meta.url).href;
let mounts = 0;

/** The error a superseded, cancelled or destroyed load rejects with. */
function abortError(message) {
  return typeof DOMException === 'function' ? new DOMException(message, 'AbortError') : Object.assign(new Error(message), { name: 'AbortError' });
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** What a trace's info says to the embedding app (the worker's handle stays inside). */
function publicInfo(info) {
  const { traceId, ...rest } = info;
  return rest;
}

function noSpellcheck(node) {
  node.spellcheck = false;
  return node;
}

/** Adds the stylesheet to the document once (light-DOM mounts). */
function ensureDocumentStylesheet(href) {
  const present = [...document.querySelectorAll('link[rel=stylesheet]')].some((l) => l.href === href);
  if (!present) document.head.append(el('link', { rel: 'stylesheet', href }));
}

/**
 * Turns what `load()` accepts into a source: bytes (Uint8Array, ArrayBuffer,
 * another typed array), a File or Blob, a URL (object or string, relative to
 * the document), or `{ name, bytes }`.
 */
function toSource(input) {
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

/**
 * Mounts a viewer in `element`. See viewer.d.ts for the options and the
 * handle; every option defaults to off (an embedded viewer leaves the page's
 * URL, keyboard and other elements alone).
 */
export function mountViewer(element, options = {}) {
  if (!element || typeof element.appendChild !== 'function') throw new TypeError('mountViewer(element, options): element must be a DOM element');
  const n = ++mounts;
  const o = {
    hash: false,
    globalKeys: false,
    controls: false,
    samples: false,
    urlParam: false,
    shadow: false,
    title: null,
    stylesheet: STYLESHEET,
    ...options,
  };
  // Ids are unique per viewer: a shadow root scopes them, else a prefix does.
  const P = o.idPrefix ?? (o.shadow ? '' : `atv${n}-`);
  const dropTarget = o.dropTarget === undefined ? (o.controls ? element : null) : o.dropTarget || null;
  const ac = new AbortController();
  const signal = ac.signal;
  let destroyed = false;

  // ---------------------------------------------------------- DOM

  const shadowRoot = o.shadow ? (element.shadowRoot ?? element.attachShadow({ mode: 'open' })) : null;
  const rootEl = buildSkeleton();
  if (shadowRoot) {
    const parts = [rootEl];
    if (o.stylesheet) parts.unshift(el('link', { rel: 'stylesheet', href: o.stylesheet }));
    shadowRoot.replaceChildren(...parts);
  } else {
    if (o.stylesheet) ensureDocumentStylesheet(new URL(o.stylesheet, document.baseURI).href);
    element.append(rootEl);
  }
  /** The skeleton's elements by their unprefixed id; dynamic ones are looked up in the viewer. */
  const byId = new Map();
  for (const node of rootEl.querySelectorAll('[id]')) byId.set(node.id.slice(P.length), node);
  const $ = (id) => byId.get(id) ?? rootEl.querySelector(`#${CSS.escape(P + id)}`);
  const activeElement = () => (shadowRoot ?? document).activeElement;

  function buildSkeleton() {
    const id = (name) => P + name;
    const sampleMenu = o.samples
      ? [el('label', { className: 'visually-hidden', htmlFor: id('sample-select') }, 'Load a sample trace'), el('select', { id: id('sample-select'), className: 'sample-select' }, el('option', { value: '' }, 'Samples…'))]
      : [];
    const openControls =
      o.controls || o.samples
        ? el(
            'div',
            { className: 'open-controls', role: 'group', 'aria-label': 'Open traces' },
            // Visually hidden, not `hidden`: the inputs stay in the tab order, their labels are the buttons.
            o.controls
              ? [
                  el('input', { id: id('file-input'), className: 'visually-hidden file-input', type: 'file', multiple: true, accept: '.json,.jsonl,.ndjson,.gz,application/json' }),
                  el('label', { className: 'button', htmlFor: id('file-input') }, 'Open files…'),
                  el('input', { id: id('folder-input'), className: 'visually-hidden file-input', type: 'file', webkitdirectory: true }),
                  el('label', { className: 'button', htmlFor: id('folder-input') }, 'Open folder…'),
                  el('button', { id: id('paste-button'), type: 'button', className: 'button', 'aria-expanded': 'false', 'aria-controls': id('paste-panel') }, 'Paste JSON…'),
                ]
              : null,
            sampleMenu,
          )
        : null;
    const header = el(
      'header',
      { className: 'top' },
      o.title ? el('h1', {}, String(o.title)) : null,
      openControls,
      el('span', { id: id('status'), className: 'status muted', role: 'status', 'aria-live': 'polite' }, 'Loading the parser…'),
      el('button', { id: id('help-button'), type: 'button', className: 'button small', 'aria-haspopup': 'dialog', title: 'Keyboard shortcuts (?)' }, 'Keys ?'),
    );
    const progressBox = el(
      'section',
      { id: id('progress'), className: 'progress', hidden: true, 'aria-label': 'Loading' },
      el('span', { id: id('progress-label') }),
      el('progress', { id: id('progress-bar'), max: 1, value: 0, 'aria-labelledby': id('progress-label') }),
      el('span', { id: id('progress-text'), className: 'muted' }),
      el('button', { id: id('cancel'), type: 'button', className: 'button' }, 'Cancel'),
    );
    const urlConfirm = o.urlParam
      ? el(
          'section',
          { id: id('url-confirm'), className: 'notice', hidden: true, 'aria-labelledby': id('url-confirm-title') },
          el('p', { id: id('url-confirm-title') }, 'This link asks to load a trace from ', el('code', { id: id('url-target') }), '.'),
          el('p', { className: 'muted' }, 'Nothing is fetched until you say so; the file is then read here, in your browser.'),
          el('button', { id: id('url-load'), type: 'button', className: 'button primary' }, 'Load it'),
          el('button', { id: id('url-dismiss'), type: 'button', className: 'button' }, 'Dismiss'),
        )
      : null;
    const pastePanel = o.controls
      ? el(
          'section',
          { id: id('paste-panel'), className: 'notice paste-panel', hidden: true, 'aria-label': 'Paste a trace' },
          el('label', { htmlFor: id('paste-text') }, 'Paste a trace (JSON or JSON Lines):'),
          noSpellcheck(el('textarea', { id: id('paste-text'), rows: 8 })),
          el('button', { id: id('paste-load'), type: 'button', className: 'button primary' }, 'Load'),
          el('button', { id: id('paste-cancel'), type: 'button', className: 'button' }, 'Cancel'),
        )
      : null;
    const ways = [...(o.controls ? ['open them above', 'paste JSON'] : []), ...(o.samples ? ['pick a sample'] : [])];
    const waysText = ways.length > 1 ? `${ways.slice(0, -1).join(', ')}, or ${ways[ways.length - 1]}` : ways.join('');
    const hint = dropTarget
      ? [el('strong', {}, `Drop trace files or a folder ${dropTarget === document ? 'anywhere on this page' : 'here'}`), ways.length ? `, ${waysText}.` : '.']
      : ways.length
        ? [`To read a trace, ${waysText}.`]
        : ['No trace loaded yet.'];
    const filter = el(
      'form',
      { id: id('filter'), className: 'filter', autocomplete: 'off', role: 'search' },
      el('label', {}, 'Role ', el('select', { id: id('role-filter'), className: 'role-filter' }, el('option', { value: '' }, 'all'))),
      el(
        'label',
        { className: 'grow' },
        'Filter ',
        el('input', {
          id: id('query'),
          className: 'query',
          type: 'search',
          placeholder: 'text, "phrase", /regex/, role:tool, tool:name, is:error, after:2024-05-01, -negate, a OR b  (press /)',
          'aria-describedby': `${id('query-error')} ${id('match-count')}`,
        }),
      ),
      el('span', { id: id('match-count'), className: 'muted', 'aria-live': 'polite' }),
    );
    const trace = el(
      'section',
      { id: id('trace'), className: 'trace', hidden: true },
      el(
        'div',
        { className: 'trace-head' },
        el(
          'div',
          { className: 'switchers' },
          el('label', { id: id('file-switcher-label'), hidden: true }, 'File ', el('select', { id: id('file-switcher') })),
          el(
            'span',
            { id: id('run-switcher'), hidden: true },
            el('label', {}, 'Run ', el('select', { id: id('run-select') })),
            el(
              'label',
              {},
              'Runs matching ',
              el('input', { id: id('run-query'), className: 'run-query', type: 'search', placeholder: 'metadata.scores.correct:true', 'aria-describedby': `${id('run-query-error')} ${id('run-count')}` }),
            ),
            el('span', { id: id('run-count'), className: 'muted' }),
          ),
        ),
        el('p', { id: id('run-query-error'), className: 'query-error', role: 'alert', hidden: true }),
        el('div', { id: id('summary'), className: 'summary' }),
      ),
      el('div', { id: id('tabs'), className: 'tabs', role: 'tablist', 'aria-label': 'Views' }),
      el(
        'section',
        { id: id('view-events'), className: 'view view-events', role: 'tabpanel', 'aria-labelledby': id('tab-events') },
        filter,
        el('p', { id: id('query-error'), className: 'query-error', role: 'alert', hidden: true }),
        el('div', { id: id('facets'), className: 'facets', 'aria-label': 'Matches by role and tool' }),
        el(
          'div',
          { className: 'split' },
          el('div', { id: id('event-list'), className: 'vlist event-list', role: 'listbox', tabIndex: 0, 'aria-label': 'Events (j/k or arrows to move, Enter to open)' }),
          el('aside', { id: id('detail'), className: 'detail', 'aria-labelledby': id('detail-title'), hidden: true }),
        ),
      ),
      el('section', { id: id('view-other'), className: 'view', role: 'tabpanel', hidden: true }),
    );
    // One <main> per page: only the standalone page (which has a title) uses it.
    const main = el(
      o.title ? 'main' : 'div',
      { id: id('main'), className: 'main', tabIndex: -1 },
      el(
        'section',
        { id: id('drop-hint'), className: 'drop-hint' },
        el('p', {}, ...hint),
        el(
          'p',
          { className: 'muted' },
          'Formats this build reads: ',
          el('span', { id: id('format-list') }, '…'),
          ' — as JSON or JSON Lines, optionally gzipped. Nothing leaves your machine: files are parsed here, in WebAssembly.',
        ),
      ),
      el('section', { id: id('load-error'), className: 'load-error', role: 'alert', hidden: true }),
      trace,
    );
    const key = (keys, what) => [el('dt', {}, ...keys), el('dd', {}, what)];
    const kbd = (k) => el('kbd', {}, k);
    const help = el(
      'dialog',
      { id: id('help'), 'aria-labelledby': id('help-title') },
      el('h2', { id: id('help-title') }, 'Keyboard'),
      el(
        'dl',
        { className: 'keys' },
        key([kbd('j'), ' / ', kbd('↓')], 'next event'),
        key([kbd('k'), ' / ', kbd('↑')], 'previous event'),
        key([kbd('PgDn'), ' / ', kbd('PgUp')], 'a screen down / up'),
        key([kbd('g'), ' / ', kbd('Home'), ', ', kbd('G'), ' / ', kbd('End')], 'first / last event'),
        key([kbd('Enter')], 'open the selected event (or diagnostic)'),
        key([kbd('Esc')], 'close the detail pane, this help, or leave the filter box'),
        key([kbd('/')], 'focus the filter'),
        key([kbd('1'), '…', kbd('9')], 'switch view (tab)'),
        key([kbd('?')], 'this list'),
      ),
      el('button', { id: id('help-close'), className: 'button', type: 'button' }, 'Close'),
    );
    const overlay = dropTarget
      ? el('div', { id: id('drop-overlay'), className: `drop-overlay${dropTarget === document ? '' : ' local'}`, hidden: true }, el('p', {}, 'Drop to open'))
      : null;
    return el(
      'div',
      { className: 'atv' },
      o.globalKeys ? el('a', { className: 'skip-link', href: `#${id('event-list')}` }, 'Skip to the events') : null,
      header,
      progressBox,
      urlConfirm,
      pastePanel,
      main,
      help,
      overlay,
    );
  }

  /** Fires `atv-<type>` on the mounted element. */
  function emit(type, detail) {
    if (destroyed) return;
    element.dispatchEvent(new CustomEvent(`atv-${type}`, { detail, bubbles: true, composed: true }));
  }

  const state = {
    worker: null,
    /** Loaded sources: { name, path, file?, bytes?, text?, url?, info?, error? } */
    files: [],
    fileIndex: -1,
    /** What the worker's `parse` returned for the shown file. */
    info: null,
    run: null,
    query: '',
    role: '',
    /** Matching event indices (sorted), or null for every event. */
    indices: null,
    count: 0,
    selected: null,
    detailOpen: false,
    view: 'events',
    filterSeq: 0,
    /** Bumped by each openFile: a slower, older one must not show its file. */
    openSeq: 0,
    /** Format ids of this build. */
    formats: [],
  };

  // ------------------------------------------------------------ URL or kept state

  /** The hash without `hash`: the same state, kept here instead of in the page's URL. */
  let keptHash = '';

  function currentHash() {
    return o.hash ? location.hash : keptHash;
  }

  function setHash(hash, { push = false } = {}) {
    if (!o.hash) {
      keptHash = hash === '#' ? '' : hash;
      return;
    }
    if (push) history.pushState(null, '', hash);
    else history.replaceState(null, '', hash);
  }

  /** After a new load: the query string that reloads it, and the hash kept or dropped. */
  function setSearch(search, keepHash) {
    if (!o.hash) {
      if (!keepHash) keptHash = '';
      return;
    }
    history.replaceState(null, '', `${location.pathname}${search}${keepHash ? location.hash : ''}`);
  }

  // ------------------------------------------------------------ status, errors

  function setStatus(text) {
    $('status').textContent = text;
  }

  function showLoadError(message, what = 'Could not read this file') {
    const box = $('load-error');
    clear(box).append(el('strong', {}, `${what}: `), message);
    box.hidden = false;
    emit('error', { message, what });
  }

  // ------------------------------------------------------------ progress

  const progress = {
    timer: 0,
    start(label) {
      $('progress').hidden = false;
      $('progress-label').textContent = label;
      this.t0 = performance.now();
      this.bytes(0, 0);
    },
    bytes(done, total) {
      const bar = $('progress-bar');
      const secs = Math.max(0.001, (performance.now() - this.t0) / 1000);
      if (total > 0) {
        bar.max = total;
        bar.value = done;
      } else {
        bar.removeAttribute('value');
      }
      const rate = done / 1024 / 1024 / secs;
      $('progress-text').textContent = `${formatBytes(done)}${total ? ` of ${formatBytes(total)}` : ''} · ${rate.toFixed(1)} MB/s`;
    },
    parsing(label, size) {
      const bar = $('progress-bar');
      bar.removeAttribute('value');
      $('progress-label').textContent = label;
      const t0 = performance.now();
      const tick = () => ($('progress-text').textContent = `${formatBytes(size)} · ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      tick();
      clearInterval(this.timer);
      this.timer = setInterval(tick, 250);
    },
    stop() {
      clearInterval(this.timer);
      $('progress').hidden = true;
    },
  };

  // ------------------------------------------------------------ worker

  function newWorker() {
    state.worker = new TraceWorker();
    return state.worker.ready;
  }

  function call(op, args = {}, transfer = []) {
    if (destroyed) return Promise.reject(abortError('the viewer was destroyed'));
    return state.worker.call(op, { traceId: state.info?.traceId, ...args }, transfer);
  }

  /**
   * A wasm trap (out of memory on a huge file, an internal error) leaves the
   * module unusable: start a fresh worker. The traces it held are gone, so
   * files are parsed again when shown.
   */
  function restartAfterTrap() {
    state.worker.terminate();
    for (const f of state.files) delete f.info;
    state.info = null;
    $('trace').hidden = true;
    if (!destroyed) newWorker();
  }

  function cancelLoading() {
    state.worker.terminate();
    progress.stop();
    // Every trace lived in the terminated worker: start over.
    state.files = [];
    state.fileIndex = -1;
    state.info = null;
    $('trace').hidden = true;
    $('drop-hint').hidden = false;
    setStatus('Cancelled');
    rejectPending(abortError('the load was cancelled'));
    newWorker();
  }

  // ------------------------------------------------------------ loading

  /** The load() call in progress: { resolve, reject }. */
  let pendingLoad = null;
  /** Settles when the last load (any way it was asked for) has settled. */
  let lastLoad = Promise.resolve();

  function rejectPending(error, except = null) {
    if (pendingLoad && pendingLoad !== except) {
      pendingLoad.reject(error);
      pendingLoad = null;
    }
  }

  /**
   * Replaces the open files with `sources` and shows the first (or the hash's
   * `f`); resolves to the info of the trace shown. `search` is the query
   * string that reloads them (`?sample=…`, `?url=…`; none for local files);
   * `keepHash` keeps the hash's state (a shared link being opened) instead
   * of starting fresh. A later load supersedes this one: it then rejects
   * with an AbortError and shows nothing.
   */
  function loadSources(sources, { skipped = [], search = '', keepHash = false, caller = null } = {}) {
    rejectPending(abortError('superseded by a later load'), caller);
    const run = async () => {
      // The first load of the page keeps the hash: it may be a shared link waiting for its file.
      keepHash ||= !state.files.length;
      setSearch(search, keepHash);
      if (!sources.length) {
        const message = skipped.length ? `no trace files (.json, .jsonl, .ndjson, .gz) among ${skipped.length} files` : 'nothing to open';
        showLoadError(message, 'Nothing to load');
        throw new Error(message);
      }
      for (const f of state.files) if (f.info) call('free', { traceId: f.info.traceId }).catch(() => {});
      state.files = groupConversations(sources).map((s) => ({ ...s }));
      state.fileIndex = -1;
      renderFileSwitcher();
      state.note = skipped.length ? ` · skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} that ${skipped.length === 1 ? 'is' : 'are'} not a trace` : '';
      const wanted = Number(hashParams().get('f') ?? 0);
      return openFile(wanted >= 0 && wanted < state.files.length ? wanted : 0);
    };
    const p = run();
    lastLoad = p.catch(() => {});
    return p;
  }

  /** A load started by the page's own controls: its failure is already shown. */
  function uiLoad(sources, opts) {
    loadSources(sources, opts).catch(() => {});
  }

  /** `handle.load`: waits for the worker, supersedes any load in progress, never depends on timing. */
  function load(input) {
    if (destroyed) return Promise.reject(abortError('the viewer was destroyed'));
    let entry;
    const promise = new Promise((resolve, reject) => (entry = { resolve, reject }));
    rejectPending(abortError('superseded by a later load'));
    pendingLoad = entry;
    const work = (async () => {
      await ready;
      if (pendingLoad !== entry) throw abortError('superseded by a later load');
      const source = toSource(input);
      const info = await loadSources([source], { caller: entry });
      return publicInfo(info);
    })();
    lastLoad = work.catch(() => {});
    work.then(
      (info) => {
        if (pendingLoad === entry) pendingLoad = null;
        entry.resolve(info);
      },
      (e) => {
        if (pendingLoad === entry) pendingLoad = null;
        entry.reject(e);
      },
    );
    return promise;
  }

  /** An OpenHands conversation's event file: `event-00012-<id>.json` (also inside longer names). */
  const EVENT_FILE = /^(.*?)(?:^|[_/])event-\d{5}-[^/]*\.json$/;

  /**
   * Gathers the event files of an OpenHands conversation folder (one event per
   * file) into one source, read as one trace by the core's `parseFiles`; other
   * files stay separate traces.
   */
  function groupConversations(sources) {
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

  /** Parses a source in the worker: a File is read there; fetched, pasted or given bytes are sent to it. */
  async function parseSource(source, label) {
    progress.start(label);
    const onProgress = (p) => {
      if (p.phase === 'reading') progress.bytes(p.done, p.total);
      else {
        progress.parsing(`Parsing ${source.name}`, p.total);
        setStatus(`Parsing ${source.name}…`);
      }
    };
    if (source.parts) {
      const files = source.parts.map((p) => p.file);
      return state.worker.call('parseFiles', { files, name: source.name }, [], onProgress);
    }
    if (source.file) {
      return state.worker.call('parseFile', { file: source.file, name: source.name, format: source.format }, [], onProgress);
    }
    // Pasted text and given bytes are kept (to parse again as another format); fetched bytes are fetched again.
    const buffer =
      source.text !== undefined
        ? new TextEncoder().encode(source.text).buffer
        : source.bytes
          ? source.bytes.slice().buffer
          : await fetchWithPolicyCheck(source.url, (d, t) => progress.bytes(d, t));
    progress.parsing(`Parsing ${source.name}`, buffer.byteLength);
    setStatus(`Parsing ${source.name}…`);
    // The buffer moves to the worker: no copy of a 100 MB file.
    return state.worker.call('parse', { buffer, name: source.name, format: source.format }, [buffer]);
  }

  /** Fetches a URL; a Content-Security-Policy refusal is explained, not just "failed". */
  async function fetchWithPolicyCheck(url, onProgress) {
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

  /**
   * Shows file `i` of the open files, parsing it first if needed; resolves to
   * its info. Rejects with an AbortError when a later load or file switch
   * took over meanwhile (nothing of this one is shown then), or with the
   * parse error (shown in the viewer).
   */
  async function openFile(i) {
    const files = state.files;
    const seq = ++state.openSeq;
    const stale = () => destroyed || state.files !== files || state.openSeq !== seq;
    const source = files[i];
    if (!source) throw new Error(`no file ${i}`);
    $('load-error').hidden = true;
    if (!source.info) {
      const label = `Reading ${source.path ?? source.name}`;
      setStatus(`${label}…`);
      let info;
      try {
        info = await parseSource(source, label);
      } catch (e) {
        if (stale()) throw abortError('superseded by a later load');
        progress.stop();
        if (e instanceof Cancelled) throw abortError('the load was cancelled');
        if (e.fatal) restartAfterTrap();
        source.error = e.message;
        state.fileIndex = i;
        renderFileSwitcher();
        showLoadError(e.message, `Could not read ${source.path ?? source.name}`);
        setStatus('');
        if (!state.info) $('drop-hint').hidden = false;
        throw e;
      }
      if (state.files !== files) {
        // A newer load replaced the files while this one parsed: drop its trace.
        call('free', { traceId: info.traceId }).catch(() => {});
        throw abortError('superseded by a later load');
      }
      source.info = info;
      if (stale()) throw abortError('superseded by a later file');
      progress.stop();
    }
    state.fileIndex = i;
    state.info = source.info;
    // Let the browser paint the finished progress before building the trace's UI.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    if (stale()) throw abortError('superseded by a later load');
    renderFileSwitcher();
    await showTrace();
    if (stale()) throw abortError('superseded by a later load');
    setStatus(`Loaded ${source.name}${state.note ?? ''}`);
    emit('load', publicInfo(source.info));
    return source.info;
  }

  // ------------------------------------------------------------ trace display

  function renderSummary(info) {
    const { stats, detection } = info;
    const facts = [
      ['format', `${info.format}${detection.forced ? ' (forced)' : ''}`],
      ['layout', info.layout.toUpperCase()],
      ['runs', stats.runs],
      ['events', stats.events],
      ['tool calls', stats.toolCalls],
      ['linked results', stats.linkedResults],
      ['errors', stats.errors],
      ['warnings', stats.warnings],
      ['size', formatBytes(info.byteLength)],
      ['parsed in', `${info.parseMs.toFixed(0)} ms`],
    ];
    clear($('summary')).append(
      el('dl', {}, ...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-fact': k }, typeof v === 'number' ? v.toLocaleString('en-US').replace(/,/g, '') : v)])),
      el(
        'details',
        { className: 'detection' },
        el('summary', {}, `Why ${info.format}? (confidence ${Math.round(detection.confidence * 100)}%)`),
        el('ul', {}, ...detection.evidence.map((e) => el('li', {}, e))),
        detection.runnerUp ? el('p', { className: 'muted' }, `Runner-up: ${detection.runnerUp}`) : null,
      ),
      readAsMenu(info),
    );
  }

  /** "Read as": parse the file again as a format the user names, or back to detection. */
  function readAsMenu(info) {
    const select = el(
      'select',
      { id: `${P}format-select` },
      el('option', { value: '', selected: !info.detection.forced }, 'detected format'),
      ...state.formats.map((f) => el('option', { value: f, selected: info.detection.forced && f === info.format }, f)),
    );
    select.addEventListener('change', () => {
      const source = state.files[state.fileIndex];
      if (!source) return;
      call('free', { traceId: source.info.traceId }).catch(() => {});
      delete source.info;
      source.format = select.value || undefined;
      openFile(state.fileIndex).catch(() => {});
    });
    return el('label', { className: 'read-as' }, 'Read as ', select);
  }

  function renderFileSwitcher() {
    const label = $('file-switcher-label');
    label.hidden = state.files.length < 2;
    const select = clear($('file-switcher'));
    state.files.forEach((f, i) => {
      const note = f.error ? ' (failed)' : f.info ? ` (${f.info.eventCount} events)` : '';
      select.append(el('option', { value: String(i), selected: i === state.fileIndex }, `${f.path ?? f.name}${note}`));
    });
  }

  /** Options shown in the run menu; more are reached through the run filter (a
   * menu of thousands of options costs the page a long layout). */
  const RUN_OPTIONS = 100;

  function renderRunOptions(runIndices) {
    const runs = state.info.runs;
    const shown = runIndices ? [...runIndices] : runs.map((_, i) => i);
    if (state.run !== null && !shown.slice(0, RUN_OPTIONS).includes(state.run)) shown.unshift(state.run);
    const options = [el('option', { value: '' }, `all ${runs.length.toLocaleString()} runs`)];
    for (const i of shown.slice(0, RUN_OPTIONS)) {
      const r = runs[i];
      options.push(el('option', { value: String(i), selected: i === state.run }, `#${i} ${r.name ?? r.id} (${r.eventCount} events)`));
    }
    if (shown.length > RUN_OPTIONS) options.push(el('option', { disabled: true }, `… ${(shown.length - RUN_OPTIONS).toLocaleString()} more: use the run filter`));
    clear($('run-select')).append(...options);
    $('run-count').textContent = runIndices ? `${runIndices.length.toLocaleString()} of ${runs.length.toLocaleString()} runs` : '';
  }

  function renderTabs() {
    const tabs = clear($('tabs'));
    for (const [n, v] of viewsFor(state.info).entries()) {
      const selected = v.id === state.view;
      const tab = el(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `${P}tab-${v.id}`,
          'aria-selected': String(selected),
          'aria-controls': P + (v.id === 'events' ? 'view-events' : 'view-other'),
          tabIndex: selected ? 0 : -1,
          'data-view': v.id,
          title: `${v.label} (${n + 1})`,
        },
        v.label,
      );
      tab.addEventListener('click', () => setView(v.id, { push: true }));
      tabs.append(tab);
    }
  }

  /** Lets the browser run other work (input, paint) between steps of a long job. */
  const yieldToBrowser = () => new Promise((r) => setTimeout(r, 0));

  /** Builds the UI for `state.info` in a few short tasks, not one long one. */
  async function showTrace() {
    const info = state.info;
    $('drop-hint').hidden = true;
    $('trace').hidden = false;
    renderSummary(info);
    await yieldToBrowser();
    if (state.info !== info) return;
    const roles = clear($('role-filter'));
    roles.append(el('option', { value: '' }, 'all'));
    for (const [role, n] of Object.entries(info.stats.byRole)) roles.append(el('option', { value: role }, `${role} (${n})`));
    $('run-switcher').hidden = info.runCount < 2;
    $('run-query').value = '';
    $('run-query-error').hidden = true;
    if (info.runCount > 1) renderRunOptions(null);
    closeDetail({ write: false });
    await yieldToBrowser();
    if (state.info !== info) return;
    state.selected = null;
    announced = null;
    await applyHash(hashParams(), { fresh: true });
  }

  // ------------------------------------------------------------ views

  function viewContext() {
    return {
      info: state.info,
      /** The run picked in the run switcher (null: all runs). */
      run: state.run,
      call,
      /** An element id unique to this viewer. */
      id: (name) => P + name,
      goto: (index) => gotoEvent(index, { push: true }),
      setQuery: (q) => {
        $('query').value = q;
        $('role-filter').value = '';
        // One history entry for "show these events": the view switch and the filter together.
        setView('events', { write: false });
        applyFilter({ push: true });
      },
    };
  }

  async function setView(id, { push = false, write = true } = {}) {
    const available = viewsFor(state.info);
    const view = available.find((v) => v.id === id) ?? available[0];
    state.view = view.id;
    for (const tab of $('tabs').querySelectorAll('[role=tab]')) {
      const on = tab.dataset.view === view.id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    $('view-events').hidden = view.id !== 'events';
    const other = $('view-other');
    other.hidden = view.id === 'events';
    if (view.id !== 'events') {
      other.setAttribute('aria-labelledby', `${P}tab-${view.id}`);
      clear(other);
      other.list = null;
      other.dataset.view = view.id;
      const traceId = state.info.traceId;
      try {
        await view.render(other, viewContext());
      } catch (e) {
        if (state.info?.traceId === traceId) other.append(el('p', { className: 'load-error' }, `This view failed: ${e.message}`));
      }
    }
    if (write) writeHash({ push });
  }

  // ------------------------------------------------------------ event list

  const list = {
    v: null,
    init() {
      this.v = new VirtualList($('event-list'), {
        rowHeight: ROW_HEIGHT,
        idPrefix: `${P}row`,
        fetchRows: (start, end) => {
          const indices = state.indices ? state.indices.slice(start, end) : Uint32Array.from({ length: end - start }, (_, k) => start + k);
          return call('rowsAt', { indices });
        },
        renderRow,
        onSelect: (pos) => {
          state.selected = eventAt(pos);
          if (state.detailOpen) loadDetail().catch(() => {});
          // A selection the page restores itself is written with the change that caused it.
          if (!state.restoring) {
            writeHash({ push: false });
            announceSelection();
          }
        },
        onActivate: (pos) => {
          // Select and open as one step: one history entry.
          restoreSelection(pos);
          openDetail({ push: true });
          announceSelection();
        },
      });
    },
  };

  /** The last selection told to the app (atv-select), so that each is told once. */
  let announced = null;

  function announceSelection() {
    const index = state.selected;
    if (index === null || index === announced || !state.info) return;
    announced = index;
    const traceId = state.info.traceId;
    call('rowsAt', { indices: Uint32Array.of(index) })
      .then(([row]) => {
        if (!row || state.info?.traceId !== traceId) return;
        emit('select', { index, summary: row.summary ?? '', role: row.role ?? null, kind: row.kind });
      })
      .catch(() => {});
  }

  function restoreSelection(pos) {
    state.restoring = true;
    try {
      list.v.select(pos);
    } finally {
      state.restoring = false;
    }
  }

  function eventAt(pos) {
    return state.indices ? state.indices[pos] : pos;
  }

  /** List position of event `index`, or -1 when it is not in the list. */
  function positionOf(index) {
    if (!state.indices) return index >= 0 && index < state.count ? index : -1;
    let lo = 0;
    let hi = state.indices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (state.indices[mid] < index) lo = mid + 1;
      else hi = mid;
    }
    return state.indices[lo] === index ? lo : -1;
  }

  /** The query to run: the typed text, and the role menu's term. `shift` is
   * how far the typed text moved right in it (to report columns as typed). */
  function currentQuery() {
    const text = $('query').value.trim();
    const role = $('role-filter').value;
    if (!role) return { query: text, shift: 0 };
    const term = `role:${/[\s()"]/.test(role) ? JSON.stringify(role) : role}`;
    // Parenthesised so that the role applies to every alternative of an OR.
    return text ? { query: `(${text}) ${term}`, shift: 1 } : { query: term, shift: 0 };
  }

  function renderFacets(facets) {
    const box = clear($('facets'));
    const chip = (label, n, term) => {
      const b = el('button', { type: 'button', className: 'chip', title: `filter: ${term}` }, `${label} `, el('span', { className: 'muted' }, n.toLocaleString()));
      b.addEventListener('click', () => {
        const q = $('query').value.trim();
        $('query').value = q ? `${q} ${term}` : term;
        applyFilter({ push: true });
      });
      return b;
    };
    const quote = (v) => (/[\s()"]/.test(v) ? JSON.stringify(v) : v);
    const roles = Object.entries(facets.role).sort((a, b) => b[1] - a[1]);
    const tools = Object.entries(facets.tool).sort((a, b) => b[1] - a[1]).slice(0, 12);
    if (roles.length) box.append(el('span', { className: 'facet-label' }, 'roles'), ...roles.map(([r, n]) => chip(r, n, `role:${quote(r)}`)));
    if (tools.length) box.append(el('span', { className: 'facet-label' }, 'tools'), ...tools.map(([t, n]) => chip(t, n, `tool:${quote(t)}`)));
  }

  /**
   * Runs the filter in the worker and shows the matches; keeps the selection
   * when it still matches. Resolves to { count } or { error } (shown inline),
   * or null when a later filter took over.
   */
  async function applyFilter({ push = false, write = true } = {}) {
    if (!state.info) return null;
    const { query, shift } = currentQuery();
    const seq = ++state.filterSeq;
    const errorBox = $('query-error');
    let result;
    try {
      result = await call('filter', { query, run: state.run });
    } catch (e) {
      if (seq !== state.filterSeq) return null;
      const column = Math.max(1, (e.column ?? 1) - shift);
      errorBox.textContent = e.message.replace(/^query error at column \d+/, `query error at column ${column}`);
      errorBox.hidden = false;
      $('query').setAttribute('aria-invalid', 'true');
      // The rows of the last valid filter stay, dimmed, until the query is fixed.
      $('event-list').classList.add('stale');
      return { error: Object.assign(new Error(errorBox.textContent), { column }) };
    }
    if (seq !== state.filterSeq) return null;
    errorBox.hidden = true;
    $('event-list').classList.remove('stale');
    $('query').removeAttribute('aria-invalid');
    state.query = $('query').value.trim();
    state.role = $('role-filter').value;
    state.indices = result.indices;
    state.count = result.indices ? result.indices.length : state.info.eventCount;
    const total = state.info.eventCount;
    $('match-count').textContent = result.indices ? `${state.count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} events` : `${total.toLocaleString('en-US')} events`;
    renderFacets(result.facets);
    list.v.reset(state.count);
    const pos = state.selected === null ? -1 : positionOf(state.selected);
    if (pos >= 0) restoreSelection(pos);
    else if (state.detailOpen) closeDetail({ write: false });
    if (write) writeHash({ push });
    return { count: state.count };
  }

  async function loadDetail() {
    const index = state.selected;
    if (index === null) return;
    const data = await call('event', { index });
    if (index !== state.selected || !data) return;
    const pane = $('detail');
    clear(pane).append(...renderDetail(data, { onCopy: copyRaw, idPrefix: P }));
    $('close-detail').addEventListener('click', () => closeDetail({ push: true }));
  }

  function openDetail({ push = false, focus = true, write = true } = {}) {
    if (state.selected === null) return;
    state.detailOpen = true;
    $('detail').hidden = false;
    rootEl.classList.add('detail-open');
    loadDetail()
      .then(() => focus && $('detail-title')?.focus())
      .catch(() => {});
    if (write) writeHash({ push });
  }

  function closeDetail({ push = false, write = true } = {}) {
    const wasOpen = state.detailOpen;
    state.detailOpen = false;
    $('detail').hidden = true;
    rootEl.classList.remove('detail-open');
    const active = activeElement();
    if (wasOpen && active && $('detail').contains(active)) $('event-list').focus();
    if (write && wasOpen) writeHash({ push });
  }

  async function copyRaw(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission: select the text so that Ctrl+C copies it.
      const pre = $('detail').querySelector('pre.raw');
      pre.closest('details').open = true;
      getSelection().selectAllChildren(pre);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy raw JSON'), 2000);
  }

  /** Shows event `index` in the events view, clearing filters that hide it. */
  async function gotoEvent(index, { push = true, open = true } = {}) {
    if (!state.info || !(index >= 0 && index < state.info.eventCount)) return false;
    state.selected = index;
    if (state.view !== 'events') await setView('events', { write: false });
    if (positionOf(index) < 0) {
      $('query').value = '';
      $('role-filter').value = '';
      state.run = null;
      $('run-select').value = '';
      await applyFilter({ write: false });
    } else {
      restoreSelection(positionOf(index));
    }
    if (open) openDetail({ focus: false, write: false });
    writeHash({ push });
    announceSelection();
    return true;
  }

  // ------------------------------------------------------------ URL hash

  function hashParams() {
    return new URLSearchParams(currentHash().replace(/^#/, ''));
  }

  function writeHash({ push = false } = {}) {
    if (!state.info) return;
    const p = new URLSearchParams();
    if (state.selected !== null) p.set('e', String(state.selected));
    if (state.query) p.set('q', state.query);
    if (state.role) p.set('role', state.role);
    if (state.view !== 'events') p.set('v', state.view);
    if (state.run !== null) p.set('r', String(state.run));
    if (state.fileIndex > 0) p.set('f', String(state.fileIndex));
    if (state.detailOpen) p.set('open', '1');
    const hash = `#${p.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`;
    const now = currentHash();
    if (hash === now || (hash === '#' && !now)) return;
    setHash(hash, { push });
  }

  /** Brings the viewer to the state the hash describes (reload, back/forward, a shared link). */
  async function applyHash(p, { fresh = false } = {}) {
    if (!state.info) return;
    const f = Number(p.get('f') ?? 0);
    if (!fresh && f !== state.fileIndex && state.files[f]) {
      await openFile(f);
      return;
    }
    const q = p.get('q') ?? '';
    const role = p.get('role') ?? '';
    const r = p.has('r') ? Number(p.get('r')) : null;
    const run = r !== null && r >= 0 && r < state.info.runCount ? r : null;
    const e = p.has('e') ? Number(p.get('e')) : null;
    state.selected = e !== null && e >= 0 && e < state.info.eventCount ? e : null;
    if (fresh) renderTabs();
    const filterChanged = fresh || q !== state.query || role !== state.role || run !== state.run;
    $('query').value = q;
    $('role-filter').value = [...$('role-filter').options].some((o) => o.value === role) ? role : '';
    state.run = run;
    if (state.info.runCount > 1) {
      if (run !== null && !$('run-select').querySelector(`option[value="${run}"]`)) renderRunOptions(null);
      $('run-select').value = run === null ? '' : String(run);
    }
    if (filterChanged) await applyFilter({ write: false });
    else if (state.selected !== null && positionOf(state.selected) >= 0) restoreSelection(positionOf(state.selected));
    const view = p.get('v') ?? 'events';
    if (fresh || view !== state.view) await setView(view, { write: false });
    if (p.get('open') === '1' && state.selected !== null) openDetail({ focus: false, write: false });
    else closeDetail({ write: false });
    writeHash({ push: false });
  }

  // ------------------------------------------------------------ keyboard

  function currentList() {
    if (state.view === 'events') return list.v;
    return $('view-other').list ?? null;
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // The element the key was pressed in, also inside a shadow root.
    const t = e.composedPath()[0] ?? e.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    if ($('help').open) return;
    if (typing) {
      if (e.key === 'Escape' && t === $('query')) {
        e.preventDefault();
        $('event-list').focus();
      } else if (e.key === 'Enter' && t === $('query')) {
        e.preventDefault();
        clearTimeout(queryTimer);
        applyFilter({ push: true }).then(() => $('event-list').focus());
      }
      return;
    }
    if (!state.info) {
      if (e.key === '?') showHelp();
      return;
    }
    const l = currentList();
    const move = (to) => {
      e.preventDefault();
      if (!l || !l.count) return;
      l.select(to);
      if (l === list.v) $('event-list').focus({ preventScroll: true });
      else l.root.focus({ preventScroll: true });
    };
    const cur = l ? l.selected : -1;
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        return move(cur + 1);
      case 'k':
      case 'ArrowUp':
        return move(cur < 0 ? 0 : cur - 1);
      case 'PageDown':
        return move(cur + (l?.pageSize() ?? 10));
      case 'PageUp':
        return move(Math.max(0, cur - (l?.pageSize() ?? 10)));
      case 'g':
      case 'Home':
        return move(0);
      case 'G':
      case 'End':
        return move((l?.count ?? 1) - 1);
      case 'Enter':
        if (t.closest?.('a, button, summary')) return;
        if (l && cur >= 0) {
          e.preventDefault();
          if (l === list.v) openDetail({ push: true });
          else l.o.onActivate?.(cur);
        }
        return;
      case 'Escape':
        if (state.detailOpen) {
          e.preventDefault();
          closeDetail({ push: true });
          $('event-list').focus();
        }
        return;
      case '/':
        e.preventDefault();
        if (state.view !== 'events') setView('events', { push: true });
        $('query').focus();
        $('query').select();
        return;
      case '?':
        e.preventDefault();
        showHelp();
        return;
      default:
        if (/^[1-9]$/.test(e.key)) {
          const v = viewsFor(state.info)[Number(e.key) - 1];
          if (v) {
            e.preventDefault();
            setView(v.id, { push: true });
          }
        }
    }
  }

  function showHelp() {
    const d = $('help');
    if (!d.open) d.showModal();
    $('help-close').focus();
  }

  // ------------------------------------------------------------ wiring

  let queryTimer;
  let runTimer;
  const on = (target, type, fn) => target.addEventListener(type, fn, { signal });

  function wireDropZone() {
    const overlay = $('drop-overlay');
    let depth = 0;
    on(dropTarget, 'dragenter', (e) => {
      e.preventDefault();
      depth++;
      overlay.hidden = false;
    });
    on(dropTarget, 'dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) overlay.hidden = true;
    });
    on(dropTarget, 'dragover', (e) => e.preventDefault());
    on(dropTarget, 'drop', async (e) => {
      e.preventDefault();
      depth = 0;
      overlay.hidden = true;
      if (!e.dataTransfer) return;
      const { entries, files } = dropEntries(e.dataTransfer);
      if (entries.length) {
        const found = await filesFromEntries(entries);
        uiLoad(found.files.map(({ file, path }) => ({ name: file.name, path, file })), { skipped: found.skipped });
      } else {
        uiLoad(files.map((file) => ({ name: file.name, path: file.name, file })));
      }
    });
  }

  function wirePaste() {
    const panel = $('paste-panel');
    const toggle = (open) => {
      panel.hidden = !open;
      $('paste-button').setAttribute('aria-expanded', String(open));
      if (open) $('paste-text').focus();
    };
    const loadText = (text) => uiLoad([{ name: 'pasted text', path: 'pasted text', text }]);
    $('paste-button').addEventListener('click', () => toggle(panel.hidden));
    $('paste-cancel').addEventListener('click', () => toggle(false));
    $('paste-load').addEventListener('click', () => {
      const text = $('paste-text').value;
      if (!text.trim()) return;
      toggle(false);
      $('paste-text').value = '';
      loadText(text);
    });
    // Pasting outside a text field (anywhere on the page with globalKeys, else in the viewer) loads the clipboard's text.
    on(o.globalKeys ? document : rootEl, 'paste', (e) => {
      const t = e.composedPath()[0] ?? e.target;
      if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
      const text = e.clipboardData?.getData('text/plain');
      if (text && /^\s*[[{]/.test(text)) {
        e.preventDefault();
        loadText(text);
      }
    });
  }

  async function wireSamples() {
    const select = $('sample-select');
    // `samples: true`: this site's samples/ folder; a string: the URL of another index.json.
    const custom = typeof o.samples === 'string';
    const index = new URL(custom ? o.samples : 'samples/index.json', document.baseURI);
    let samples = [];
    try {
      const response = await fetch(index, { cache: 'no-store' });
      if (response.ok) samples = await response.json();
    } catch {
      // No samples on this host: the menu stays empty.
    }
    if (destroyed) return () => {};
    for (const s of samples) select.append(el('option', { value: s.file, title: s.description ?? '' }, `${s.title} (${s.format})`));
    select.hidden = !samples.length;
    const loadSample = (file, keepHash) =>
      loadSources([{ name: file, path: custom ? new URL(file, index).href : `samples/${file}`, url: new URL(file, index).href }], {
        search: `?sample=${encodeURIComponent(file)}`,
        keepHash,
      }).catch(() => {});
    select.addEventListener('change', () => {
      const file = select.value;
      select.value = '';
      if (file) loadSample(file, false);
    });
    // `?sample=NAME` (a sample of this site, so no confirmation is needed) reopens it on reload.
    const wanted = o.urlParam ? new URLSearchParams(location.search).get('sample') : null;
    return () => {
      if (wanted && samples.some((s) => s.file === wanted)) loadSample(wanted, true);
    };
  }

  /** `?url=…`: offer to fetch it; nothing is requested until the user says so. */
  function wireUrlParam() {
    const raw = new URLSearchParams(location.search).get('url');
    if (!raw) return;
    let url;
    try {
      url = new URL(raw, document.baseURI);
    } catch {
      showLoadError(`\`${raw}\` is not a URL`, 'Cannot load the linked trace');
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      showLoadError(`only http(s) URLs can be loaded, not ${url.protocol}`, 'Cannot load the linked trace');
      return;
    }
    $('url-target').textContent = url.href;
    $('url-confirm').hidden = false;
    $('url-load').addEventListener('click', () => {
      $('url-confirm').hidden = true;
      const name = decodeURIComponent(url.pathname.split('/').pop() || url.host);
      uiLoad([{ name, path: url.href, url: url.href }], { search: location.search, keepHash: true });
    });
    $('url-dismiss').addEventListener('click', () => ($('url-confirm').hidden = true));
  }

  function wireControls() {
    if (o.controls) {
      $('file-input').addEventListener('change', (e) => {
        const { files } = filesFromInput(e.target.files ?? []);
        if (files.length) uiLoad(files.map(({ file, path }) => ({ name: file.name, path, file })));
        e.target.value = '';
      });
      $('folder-input').addEventListener('change', (e) => {
        const { files, skipped } = filesFromInput(e.target.files ?? []);
        uiLoad(files.map(({ file, path }) => ({ name: file.name, path, file })), { skipped });
        e.target.value = '';
      });
    }
    $('cancel').addEventListener('click', cancelLoading);
    $('filter').addEventListener('submit', (e) => e.preventDefault());
    $('role-filter').addEventListener('change', () => applyFilter({ push: true }));
    $('query').addEventListener('input', () => {
      clearTimeout(queryTimer);
      queryTimer = setTimeout(() => applyFilter({ push: false }), 150);
    });
    $('file-switcher').addEventListener('change', (e) => {
      state.selected = null;
      state.query = '';
      setHash(`#f=${e.target.value}`, { push: true });
      openFile(Number(e.target.value)).catch(() => {});
    });
    $('run-select').addEventListener('change', (e) => {
      state.run = e.target.value === '' ? null : Number(e.target.value);
      applyFilter({ push: true });
      // Views of one run (AgentRun text, OpenHands' views) follow the switcher.
      if (state.view !== 'events') setView(state.view, { write: false });
    });
    $('run-query').addEventListener('input', () => {
      clearTimeout(runTimer);
      runTimer = setTimeout(async () => {
        const q = $('run-query').value.trim();
        const box = $('run-query-error');
        try {
          const runs = q ? await call('filterRuns', { query: q }) : null;
          box.hidden = true;
          $('run-query').removeAttribute('aria-invalid');
          renderRunOptions(runs);
        } catch (e) {
          box.textContent = e.message;
          box.hidden = false;
          $('run-query').setAttribute('aria-invalid', 'true');
        }
      }, 200);
    });
    $('tabs').addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const tabs = [...$('tabs').querySelectorAll('[role=tab]')];
      const at = tabs.indexOf(activeElement());
      const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next.focus();
      next.click();
    });
    // Links to events anywhere in the viewer (rows, detail pane, diagnostics) navigate in it.
    rootEl.addEventListener('click', (e) => {
      const a = e.target.closest?.('a[data-event]');
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      gotoEvent(Number(a.dataset.event), { push: true });
    });
    // The skip link moves focus, not the hash (the hash is the page's state).
    rootEl.querySelector('.skip-link')?.addEventListener('click', (e) => {
      e.preventDefault();
      (state.info ? $('event-list') : $('main')).focus();
    });
    $('help-button').addEventListener('click', showHelp);
    $('help-close').addEventListener('click', () => $('help').close());
    on(o.globalKeys ? document : rootEl, 'keydown', onKey);
    if (o.hash) {
      // popstate covers back/forward and a hash edited by hand (hashchange would apply it twice).
      let applying = Promise.resolve();
      on(window, 'popstate', () => {
        // One at a time: quick back-back-back presses apply in order.
        applying = applying.then(() => applyHash(hashParams())).catch(() => {});
      });
    }
  }

  async function start() {
    list.init();
    wireControls();
    if (dropTarget) wireDropZone();
    if (o.controls) wirePaste();
    if (o.urlParam) wireUrlParam();
    const samples = o.samples ? wireSamples() : Promise.resolve(() => {});
    await newWorker();
    // The hint names what this build reads (the list grows with the format modules).
    state.formats = await state.worker.call('formats');
    $('format-list').textContent = state.formats.join(', ');
    const openLinkedSample = await samples;
    if (destroyed) throw abortError('the viewer was destroyed');
    setStatus('Ready');
    rootEl.dataset.ready = 'true';
    openLinkedSample();
  }

  let markDestroyed;
  const destroyedSignal = new Promise((_, reject) => (markDestroyed = reject));
  destroyedSignal.catch(() => {});
  const ready = Promise.race([
    start().catch((e) => {
      if (!destroyed) {
        showLoadError(e.message, 'The viewer failed to start');
        setStatus('');
      }
      throw e;
    }),
    destroyedSignal,
  ]);
  // A failed start is shown in the viewer; an app that awaits `ready` sees it too.
  ready.catch(() => {});

  /** Waits for the viewer to start and for the load in progress, whatever their outcome. */
  async function settled() {
    await ready;
    let seen;
    do {
      seen = lastLoad;
      await seen;
    } while (seen !== lastLoad);
  }

  const handle = {
    element,
    ready,
    load,
    get info() {
      return state.info ? publicInfo(state.info) : null;
    },
    get selected() {
      return state.selected;
    },
    async select(index) {
      await settled();
      if (!state.info) throw new Error('no trace is loaded');
      if (!Number.isInteger(index) || index < 0 || index >= state.info.eventCount) throw new RangeError(`no event ${index} (the trace has ${state.info.eventCount})`);
      await gotoEvent(index, { push: false, open: true });
    },
    async setQuery(q) {
      await settled();
      if (!state.info) throw new Error('no trace is loaded');
      clearTimeout(queryTimer);
      $('query').value = String(q ?? '');
      $('role-filter').value = '';
      if (state.view !== 'events') await setView('events', { write: false });
      const result = await applyFilter({ push: false });
      if (result?.error) throw result.error;
      return result ? result.count : state.count;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      markDestroyed(abortError('the viewer was destroyed'));
      rejectPending(abortError('the viewer was destroyed'));
      ac.abort();
      clearTimeout(queryTimer);
      clearTimeout(runTimer);
      clearInterval(progress.timer);
      state.worker?.terminate();
      state.files = [];
      state.info = null;
      if ($('help').open) $('help').close();
      if (shadowRoot) shadowRoot.replaceChildren();
      else rootEl.remove();
    },
    /** For tests and the console: the viewer's state and the view registry. */
    _debug: { state, viewById, root: rootEl },
  };
  return handle;
}
