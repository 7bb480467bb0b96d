// The viewer page: load a trace file, show its summary, diagnostics and events.
// Parsed traces stay in wasm memory; the page asks for pages of rows.

import init, { parseTrace, parseFiles } from './pkg/agent_trace_viewer.js';
import { el, clear } from './dom.js';
import { renderEvent } from './events.js';
import { renderDiagnostics } from './diagnostics.js';

const PAGE = 200;
const $ = (id) => document.getElementById(id);

const state = {
  trace: null,
  /** Matching event indices, or null for all events. */
  matches: null,
  shown: 0,
};

function setStatus(text) {
  $('status').textContent = text;
}

function showLoadError(message) {
  const box = $('load-error');
  clear(box).append(el('strong', {}, 'Could not read this file: '), message);
  box.hidden = false;
}

function total() {
  return state.matches ? state.matches.length : state.trace.eventCount;
}

function renderMore() {
  const { trace } = state;
  const end = Math.min(total(), state.shown + PAGE);
  const rows = state.matches
    ? trace.eventsAt(state.matches.subarray(state.shown, end))
    : trace.events(state.shown, end - state.shown);
  const list = $('events');
  const raw = (i) => trace.rawJson(i);
  for (const row of rows) list.append(renderEvent(row, raw));
  state.shown = end;
  const more = $('more');
  more.hidden = state.shown >= total();
  more.textContent = `Show more (${(total() - state.shown).toLocaleString()} left)`;
}

function resetList() {
  clear($('events'));
  state.shown = 0;
  renderMore();
  $('match-count').textContent = state.matches
    ? `${state.matches.length.toLocaleString()} of ${state.trace.eventCount.toLocaleString()} events`
    : `${state.trace.eventCount.toLocaleString()} events`;
}

function currentQuery() {
  const role = $('role-filter').value;
  const text = $('query').value.trim();
  // The typed text comes first so that error columns match the input box.
  return [text, role ? `role:${role}` : ''].filter(Boolean).join(' ');
}

function applyFilter() {
  if (!state.trace) return;
  const query = currentQuery();
  const errorBox = $('query-error');
  try {
    state.matches = query ? state.trace.filter(query) : null;
    errorBox.hidden = true;
    $('query').removeAttribute('aria-invalid');
  } catch (e) {
    errorBox.textContent = e.message;
    errorBox.hidden = false;
    $('query').setAttribute('aria-invalid', 'true');
    return;
  }
  resetList();
}

function renderSummary(trace, fileName, ms) {
  const stats = trace.stats();
  const detection = trace.detection();
  const facts = [
    ['format', `${trace.format}${detection.forced ? ' (forced)' : ''}`],
    ['layout', trace.layout.toUpperCase()],
    ['runs', stats.runs],
    ['events', stats.events],
    ['tool calls', stats.toolCalls],
    ['linked results', stats.linkedResults],
    ['errors', stats.errors],
    ['warnings', stats.warnings],
    ['size', `${(trace.byteLength / 1024).toFixed(1)} KB`],
    ['parsed in', `${ms.toFixed(1)} ms`],
  ];
  const summary = clear($('summary'));
  summary.append(
    el('dl', {}, ...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-fact': k }, String(v))])),
    el(
      'details',
      { className: 'detection' },
      el('summary', {}, `Why ${trace.format}? (confidence ${Math.round(detection.confidence * 100)}%)`),
      el('ul', {}, ...detection.evidence.map((e) => el('li', {}, e))),
      detection.runnerUp ? el('p', { className: 'muted' }, `Runner-up: ${detection.runnerUp}`) : null,
    ),
  );
  const roles = clear($('role-filter'));
  roles.append(el('option', { value: '' }, 'all'));
  for (const [role, n] of Object.entries(stats.byRole)) {
    roles.append(el('option', { value: role }, `${role} (${n})`));
  }
  $('file-name').textContent = fileName;
}

/** Loads one file, or several as one trace (an OpenHands conversation folder). */
async function loadFiles(files) {
  const label = files.length === 1 ? files[0].name : `${files.length} files`;
  setStatus(`Reading ${label}…`);
  $('load-error').hidden = true;
  const inputs = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
  const t0 = performance.now();
  let trace;
  try {
    trace = inputs.length === 1 ? parseTrace(inputs[0].bytes, {}) : parseFiles(inputs, {});
  } catch (e) {
    showLoadError(e.message);
    setStatus('');
    return;
  }
  const ms = performance.now() - t0;
  state.trace?.free();
  state.trace = trace;
  state.matches = null;
  $('query').value = '';
  $('drop-hint').hidden = true;
  $('trace').hidden = false;
  renderSummary(trace, label, ms);
  const counts = renderDiagnostics($('diagnostics-list'), $('diagnostics-title'), trace.diagnostics());
  $('diagnostics').open = counts.errors > 0;
  resetList();
  setStatus(`Loaded ${label}`);
  showFromHash();
}

/** Scrolls to event `index`, rendering (and clearing the filter) as needed. */
function showEvent(index) {
  if (!state.trace || !(index >= 0 && index < state.trace.eventCount)) return;
  if (state.matches && !state.matches.includes(index)) {
    $('role-filter').value = '';
    $('query').value = '';
    state.matches = null;
    resetList();
  }
  const position = state.matches ? state.matches.indexOf(index) : index;
  while (state.shown <= position) renderMore();
  const row = document.getElementById(`e-${index}`);
  if (!row) return;
  document.querySelectorAll('.event.selected').forEach((r) => r.classList.remove('selected'));
  row.classList.add('selected');
  row.scrollIntoView({ block: 'center' });
}

function showFromHash() {
  const m = /^#e=(\d+)$/.exec(location.hash);
  if (m) showEvent(Number(m[1]));
}

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
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) loadFiles(files);
  });
}

async function main() {
  await init();
  setStatus('Ready');
  document.body.dataset.ready = 'true';
  $('file-input').addEventListener('change', (e) => {
    const files = [...(e.target.files ?? [])];
    if (files.length) loadFiles(files);
  });
  wireDropZone();
  $('more').addEventListener('click', renderMore);
  $('filter').addEventListener('submit', (e) => e.preventDefault());
  $('role-filter').addEventListener('change', applyFilter);
  let timer;
  $('query').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(applyFilter, 120);
  });
  window.addEventListener('hashchange', showFromHash);
}

main().catch((e) => {
  showLoadError(`the parser failed to start: ${e.message}`);
  setStatus('');
});
