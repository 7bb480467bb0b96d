// The viewer page. Parsing, filtering and every question about a trace go
// to a Web Worker (worker.js) that owns the wasm core; this thread only
// renders what is visible, so it never blocks, whatever the file's size.
//
// State that a link should carry lives in the URL hash:
//   #e=42&q=role:tool&role=assistant&v=events&r=3&f=1
// (selected event, filter text, role menu, view, run, file).

import { TraceWorker, Cancelled } from './client.js';
import { el, clear } from './dom.js';
import { renderRow, renderDetail } from './events.js';
import { VirtualList } from './vlist.js';
import { fetchUrl, dropEntries, filesFromEntries, filesFromInput } from './loader.js';
import { viewsFor, viewById } from './views/index.js';

const $ = (id) => document.getElementById(id);
const ROW_HEIGHT = 30;

const state = {
  worker: null,
  /** Loaded sources: { name, path, file?, buffer?, url?, info?, error? } */
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
  /** Format ids of this build. */
  formats: [],
};

// ------------------------------------------------------------ status, errors

function setStatus(text) {
  $('status').textContent = text;
}

function showLoadError(message, what = 'Could not read this file') {
  const box = $('load-error');
  clear(box).append(el('strong', {}, `${what}: `), message);
  box.hidden = false;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
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
  newWorker();
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
  newWorker();
}

// ------------------------------------------------------------ loading

/**
 * Replaces the open files with `sources` and shows the first (or the hash's
 * `f`). `search` is the query string that reloads them (`?sample=…`,
 * `?url=…`; none for local files); `keepHash` keeps the hash's state (a
 * shared link being opened) instead of starting fresh.
 */
async function loadSources(sources, { skipped = [], search = '', keepHash = false } = {}) {
  // The first load of the page keeps the hash: it may be a shared link waiting for its file.
  keepHash ||= !state.files.length;
  history.replaceState(null, '', `${location.pathname}${search}${keepHash ? location.hash : ''}`);
  if (!sources.length) {
    showLoadError(skipped.length ? `no trace files (.json, .jsonl, .ndjson, .gz) among ${skipped.length} files` : 'nothing to open', 'Nothing to load');
    return;
  }
  for (const f of state.files) if (f.info) state.worker.call('free', { traceId: f.info.traceId }).catch(() => {});
  sources = groupConversations(sources);
  state.files = sources.map((s) => ({ ...s }));
  state.fileIndex = -1;
  renderFileSwitcher();
  state.note = skipped.length ? ` · skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} that ${skipped.length === 1 ? 'is' : 'are'} not a trace` : '';
  const wanted = Number(hashParams().get('f') ?? 0);
  await openFile(wanted >= 0 && wanted < sources.length ? wanted : 0);
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

/** Parses a source in the worker: a File is read there; fetched or pasted bytes are transferred to it. */
async function parseSource(source, label) {
  progress.start(label);
  if (source.parts) {
    const files = source.parts.map((p) => p.file);
    return state.worker.call('parseFiles', { files, name: source.name }, [], (p) => {
      if (p.phase === 'reading') progress.bytes(p.done, p.total);
      else {
        progress.parsing(`Parsing ${source.name}`, p.total);
        setStatus(`Parsing ${source.name}…`);
      }
    });
  }
  if (source.file) {
    return state.worker.call('parseFile', { file: source.file, name: source.name, format: source.format }, [], (p) => {
      if (p.phase === 'reading') progress.bytes(p.done, p.total);
      else {
        progress.parsing(`Parsing ${source.name}`, p.total);
        setStatus(`Parsing ${source.name}…`);
      }
    });
  }
  // Pasted text is kept (to parse again as another format); fetched bytes are fetched again.
  const buffer =
    source.text !== undefined ? new TextEncoder().encode(source.text).buffer : await fetchWithPolicyCheck(source.url, (d, t) => progress.bytes(d, t));
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

async function openFile(i) {
  const source = state.files[i];
  if (!source) return;
  $('load-error').hidden = true;
  if (!source.info) {
    const label = `Reading ${source.path ?? source.name}`;
    setStatus(`${label}…`);
    try {
      source.info = await parseSource(source, label);
    } catch (e) {
      progress.stop();
      if (e instanceof Cancelled) return;
      if (e.fatal) restartAfterTrap();
      source.error = e.message;
      state.fileIndex = i;
      renderFileSwitcher();
      showLoadError(e.message, `Could not read ${source.path ?? source.name}`);
      setStatus('');
      if (!state.info) $('drop-hint').hidden = false;
      return;
    }
    progress.stop();
  }
  state.fileIndex = i;
  state.info = source.info;
  // Let the browser paint the finished progress before building the trace's UI.
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  renderFileSwitcher();
  await showTrace();
  setStatus(`Loaded ${source.name}${state.note ?? ''}`);
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
    { id: 'format-select' },
    el('option', { value: '', selected: !info.detection.forced }, 'detected format'),
    ...state.formats.map((f) => el('option', { value: f, selected: info.detection.forced && f === info.format }, f)),
  );
  select.addEventListener('change', () => {
    const source = state.files[state.fileIndex];
    if (!source) return;
    state.worker.call('free', { traceId: source.info.traceId }).catch(() => {});
    delete source.info;
    source.format = select.value || undefined;
    openFile(state.fileIndex);
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
    const tab = el('button', { type: 'button', role: 'tab', id: `tab-${v.id}`, 'aria-selected': String(selected), 'aria-controls': v.id === 'events' ? 'view-events' : 'view-other', tabIndex: selected ? 0 : -1, 'data-view': v.id, title: `${v.label} (${n + 1})` }, v.label);
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
  await applyHash(hashParams(), { fresh: true });
}

// ------------------------------------------------------------ views

function viewContext() {
  return {
    info: state.info,
    /** The run picked in the run switcher (null: all runs). */
    run: state.run,
    call,
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
    other.setAttribute('aria-labelledby', `tab-${view.id}`);
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
      idPrefix: 'row',
      fetchRows: (start, end) => {
        const indices = state.indices ? state.indices.slice(start, end) : Uint32Array.from({ length: end - start }, (_, k) => start + k);
        return call('rowsAt', { indices });
      },
      renderRow,
      onSelect: (pos) => {
        state.selected = eventAt(pos);
        if (state.detailOpen) loadDetail();
        // A selection the page restores itself is written with the change that caused it.
        if (!state.restoring) writeHash({ push: false });
      },
      onActivate: (pos) => {
        // Select and open as one step: one history entry.
        restoreSelection(pos);
        openDetail({ push: true });
      },
    });
  },
};

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

/** Runs the filter in the worker and shows the matches; keeps the selection when it still matches. */
async function applyFilter({ push = false, write = true } = {}) {
  if (!state.info) return;
  const { query, shift } = currentQuery();
  const seq = ++state.filterSeq;
  const errorBox = $('query-error');
  let result;
  try {
    result = await call('filter', { query, run: state.run });
  } catch (e) {
    if (seq !== state.filterSeq) return;
    const column = Math.max(1, (e.column ?? 1) - shift);
    errorBox.textContent = e.message.replace(/^query error at column \d+/, `query error at column ${column}`);
    errorBox.hidden = false;
    $('query').setAttribute('aria-invalid', 'true');
    // The rows of the last valid filter stay, dimmed, until the query is fixed.
    $('event-list').classList.add('stale');
    return;
  }
  if (seq !== state.filterSeq) return;
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
}

async function loadDetail() {
  const index = state.selected;
  if (index === null) return;
  const data = await call('event', { index });
  if (index !== state.selected || !data) return;
  const pane = $('detail');
  clear(pane).append(...renderDetail(data, { onCopy: copyRaw }));
  $('close-detail').addEventListener('click', () => closeDetail({ push: true }));
}

function openDetail({ push = false, focus = true, write = true } = {}) {
  if (state.selected === null) return;
  state.detailOpen = true;
  $('detail').hidden = false;
  document.body.classList.add('detail-open');
  loadDetail().then(() => focus && $('detail-title')?.focus());
  if (write) writeHash({ push });
}

function closeDetail({ push = false, write = true } = {}) {
  const wasOpen = state.detailOpen;
  state.detailOpen = false;
  $('detail').hidden = true;
  document.body.classList.remove('detail-open');
  if (wasOpen && document.activeElement && $('detail').contains(document.activeElement)) $('event-list').focus();
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
  if (!state.info || !(index >= 0 && index < state.info.eventCount)) return;
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
}

// ------------------------------------------------------------ URL hash

function hashParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
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
  if (hash === location.hash || (hash === '#' && !location.hash)) return;
  if (push) history.pushState(null, '', hash);
  else history.replaceState(null, '', hash);
}

/** Brings the page to the state the hash describes (reload, back/forward, a shared link). */
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
  const t = e.target;
  const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
  if ($('help').open) return;
  if (typing) {
    if (e.key === 'Escape' && t.id === 'query') {
      e.preventDefault();
      $('event-list').focus();
    } else if (e.key === 'Enter' && t.id === 'query') {
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

function wireDropZone() {
  const overlay = $('drop-overlay');
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    if (!e.dataTransfer) return;
    const { entries, files } = dropEntries(e.dataTransfer);
    if (entries.length) {
      const found = await filesFromEntries(entries);
      loadSources(found.files.map(({ file, path }) => ({ name: file.name, path, file })), { skipped: found.skipped });
    } else {
      loadSources(files.map((file) => ({ name: file.name, path: file.name, file })));
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
  const loadText = (text) => loadSources([{ name: 'pasted text', path: 'pasted text', text }]);
  $('paste-button').addEventListener('click', () => toggle(panel.hidden));
  $('paste-cancel').addEventListener('click', () => toggle(false));
  $('paste-load').addEventListener('click', () => {
    const text = $('paste-text').value;
    if (!text.trim()) return;
    toggle(false);
    $('paste-text').value = '';
    loadText(text);
  });
  // Pasting anywhere outside a text field loads the clipboard's text.
  document.addEventListener('paste', (e) => {
    const t = e.target;
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
  let samples = [];
  try {
    const response = await fetch('samples/index.json', { cache: 'no-store' });
    if (response.ok) samples = await response.json();
  } catch {
    // No samples on this host: the menu stays empty.
  }
  for (const s of samples) select.append(el('option', { value: s.file, title: s.description ?? '' }, `${s.title} (${s.format})`));
  select.hidden = !samples.length;
  const load = (file, keepHash) =>
    loadSources([{ name: file, path: `samples/${file}`, url: new URL(`samples/${file}`, document.baseURI).href }], {
      search: `?sample=${encodeURIComponent(file)}`,
      keepHash,
    });
  select.addEventListener('change', () => {
    const file = select.value;
    select.value = '';
    if (file) load(file, false);
  });
  // `?sample=NAME` (a sample of this site, so no confirmation is needed) reopens it on reload.
  const wanted = new URLSearchParams(location.search).get('sample');
  return () => {
    if (wanted && samples.some((s) => s.file === wanted)) load(wanted, true);
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
    loadSources([{ name, path: url.href, url: url.href }], { search: location.search, keepHash: true });
  });
  $('url-dismiss').addEventListener('click', () => ($('url-confirm').hidden = true));
}

function wireControls() {
  $('file-input').addEventListener('change', (e) => {
    const { files } = filesFromInput(e.target.files ?? []);
    if (files.length) loadSources(files.map(({ file, path }) => ({ name: file.name, path, file })));
    e.target.value = '';
  });
  $('folder-input').addEventListener('change', (e) => {
    const { files, skipped } = filesFromInput(e.target.files ?? []);
    loadSources(files.map(({ file, path }) => ({ name: file.name, path, file })), { skipped });
    e.target.value = '';
  });
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
    history.pushState(null, '', `#f=${e.target.value}`);
    openFile(Number(e.target.value));
  });
  $('run-select').addEventListener('change', (e) => {
    state.run = e.target.value === '' ? null : Number(e.target.value);
    applyFilter({ push: true });
    // Views of one run (AgentRun text, OpenHands' views) follow the switcher.
    if (state.view !== 'events') setView(state.view, { write: false });
  });
  let runTimer;
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
    const at = tabs.indexOf(document.activeElement);
    const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    next.focus();
    next.click();
  });
  // Links to events anywhere (rows, detail pane, diagnostics) navigate in-page.
  document.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[data-event]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    gotoEvent(Number(a.dataset.event), { push: true });
  });
  // The skip link moves focus, not the hash (the hash is the page's state).
  document.querySelector('.skip-link').addEventListener('click', (e) => {
    e.preventDefault();
    (state.info ? $('event-list') : $('main')).focus();
  });
  $('help-button').addEventListener('click', showHelp);
  $('help-close').addEventListener('click', () => $('help').close());
  document.addEventListener('keydown', onKey);
  // popstate covers back/forward and a hash edited by hand (hashchange would apply it twice).
  let applying = Promise.resolve();
  window.addEventListener('popstate', () => {
    // One at a time: quick back-back-back presses apply in order.
    applying = applying.then(() => applyHash(hashParams())).catch(() => {});
  });
}

async function main() {
  list.init();
  wireControls();
  wireDropZone();
  wirePaste();
  wireUrlParam();
  const samples = wireSamples();
  await newWorker();
  // The hint names what this build reads (the list grows with the format modules).
  state.formats = await state.worker.call('formats');
  $('format-list').textContent = state.formats.join(', ');
  const openLinkedSample = await samples;
  setStatus('Ready');
  document.body.dataset.ready = 'true';
  openLinkedSample();
}

main().catch((e) => {
  showLoadError(e.message, 'The viewer failed to start');
  setStatus('');
});

// For tests and the console: which view is shown, how many rows match.
window.__viewer = { state, viewById };
