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
//
// The viewer's parts live in viewer/, one job each; each `install…(v)` adds
// its functions to `v`, the viewer context (options, ids, elements, state),
// through which the parts call one another. This module keeps the handle
// and the lifecycle: mount, start, destroy.

import { el } from './dom.js';
import { viewById } from './views/index.js';
import { buildSkeleton } from './viewer/skeleton.js';
import { abortError, publicInfo } from './viewer/shared.js';
import { installLocationState } from './viewer/location-state.js';
import { installStatus } from './viewer/status.js';
import { installWorkerLink } from './viewer/worker-link.js';
import { installLoading } from './viewer/loading.js';
import { installTraceDisplay } from './viewer/trace-display.js';
import { installViewSwitch } from './viewer/view-switch.js';
import { installEventList } from './viewer/event-list.js';
import { installLazyRuns } from './viewer/lazy-runs.js';
import { installDetail } from './viewer/detail.js';
import { installHash } from './viewer/hash.js';
import { installKeyboard } from './viewer/keyboard.js';
import { installWiring } from './viewer/wiring.js';
import { installExportRedacted } from './viewer/export-redacted.js';
import { installExportBundle } from './viewer/export-bundle.js';

/** The stylesheet that goes with this module (an asset URL once bundled). */
const STYLESHEET = new URL('./style.css', import.meta.url).href;
let mounts = 0;

/** Adds the stylesheet to the document once (light-DOM mounts). */
function ensureDocumentStylesheet(href) {
  const present = [...document.querySelectorAll('link[rel=stylesheet]')].some((l) => l.href === href);
  if (!present) document.head.append(el('link', { rel: 'stylesheet', href }));
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

  const shadowRoot = o.shadow ? (element.shadowRoot ?? element.attachShadow({ mode: 'open' })) : null;
  const rootEl = buildSkeleton(o, P, dropTarget);
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
    /** The shown view's own state (a table's sort and filter), kept in the hash as `v.<key>`. */
    viewParams: new URLSearchParams(),
    filterSeq: 0,
    /** Bumped by each openFile: a slower, older one must not show its file. */
    openSeq: 0,
    /** Format ids of this build. */
    formats: [],
    /** The last selection told to the app (atv-select), so that each is told once. */
    announced: null,
  };

  /** The viewer context: what every part (viewer/*.js) shares; each install adds its functions. */
  const v = {
    o,
    P,
    element,
    rootEl,
    shadowRoot,
    dropTarget,
    state,
    $,
    destroyed: false,
    /** Pending timers of the filter box and the run filter (cleared on destroy). */
    timers: { query: 0, run: 0 },
    activeElement: () => (shadowRoot ?? document).activeElement,
    /** A listener removed when the viewer is destroyed. */
    on: (target, type, fn) => target.addEventListener(type, fn, { signal }),
    /** Fires `atv-<type>` on the mounted element. */
    emit(type, detail) {
      if (v.destroyed) return;
      element.dispatchEvent(new CustomEvent(`atv-${type}`, { detail, bubbles: true, composed: true }));
    },
  };
  for (const install of [installLocationState, installStatus, installWorkerLink, installLoading, installTraceDisplay, installViewSwitch, installEventList, installLazyRuns, installDetail, installHash, installKeyboard, installWiring, installExportRedacted, installExportBundle]) install(v);

  async function start() {
    v.initEventList();
    v.wireControls();
    if (dropTarget) v.wireDropZone();
    if (o.controls) v.wirePaste();
    if (o.urlParam) v.wireUrlParam();
    const samples = o.samples ? v.wireSamples() : Promise.resolve(() => {});
    await v.newWorker();
    // The hint names what this build reads (the list grows with the format modules).
    state.formats = await state.worker.call('formats');
    $('format-list').textContent = state.formats.join(', ');
    const openLinkedSample = await samples;
    if (v.destroyed) throw abortError('the viewer was destroyed');
    v.setStatus('Ready');
    rootEl.dataset.ready = 'true';
    openLinkedSample();
  }

  let markDestroyed;
  const destroyedSignal = new Promise((_, reject) => (markDestroyed = reject));
  destroyedSignal.catch(() => {});
  const ready = Promise.race([
    start().catch((e) => {
      if (!v.destroyed) {
        v.showLoadError(e.message, 'The viewer failed to start');
        v.setStatus('');
      }
      throw e;
    }),
    destroyedSignal,
  ]);
  // A failed start is shown in the viewer; an app that awaits `ready` sees it too.
  ready.catch(() => {});
  v.ready = ready;

  const handle = {
    element,
    ready,
    load: v.load,
    get info() {
      return state.info ? publicInfo(state.info) : null;
    },
    get selected() {
      return state.selected;
    },
    async select(index) {
      await v.settled();
      if (!state.info) throw new Error('no trace is loaded');
      if (!Number.isInteger(index) || index < 0 || index >= state.info.eventCount) throw new RangeError(`no event ${index} (the trace has ${state.info.eventCount})`);
      await v.gotoEvent(index, { push: false, open: true });
    },
    async setQuery(q) {
      await v.settled();
      if (!state.info) throw new Error('no trace is loaded');
      clearTimeout(v.timers.query);
      $('query').value = String(q ?? '');
      $('role-filter').value = '';
      if (state.view !== 'events') await v.setView('events', { write: false });
      const result = await v.applyFilter({ push: false });
      if (result?.error) throw result.error;
      return result ? result.count : state.count;
    },
    destroy() {
      if (v.destroyed) return;
      v.destroyed = true;
      markDestroyed(abortError('the viewer was destroyed'));
      v.rejectPending(abortError('the viewer was destroyed'));
      ac.abort();
      clearTimeout(v.timers.query);
      clearTimeout(v.timers.run);
      clearInterval(v.progress.timer);
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
