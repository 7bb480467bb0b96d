// The events view: the virtualised event list, the filter (query box, role
// menu, run) with its match count and facets, the selection, and
// `gotoEvent`, which shows an event from anywhere in the viewer.

import { el, clear } from '../dom.js';
import { renderRow } from '../events.js';
import { VirtualList } from '../vlist.js';

const ROW_HEIGHT = 30;

/**
 * Adds `initEventList` (which creates `eventList`, the VirtualList),
 * `applyFilter`, `gotoEvent`, `positionOf`, `restoreSelection` and
 * `announceSelection` to the viewer context `v`.
 */
export function installEventList(v) {
  const { state, $, P } = v;

  function initEventList() {
    v.eventList = new VirtualList($('event-list'), {
      rowHeight: ROW_HEIGHT,
      idPrefix: `${P}row`,
      fetchRows: (start, end) => {
        const indices = state.indices ? state.indices.slice(start, end) : Uint32Array.from({ length: end - start }, (_, k) => start + k);
        return v.call('rowsAt', { indices });
      },
      renderRow,
      onSelect: (pos) => {
        state.selected = eventAt(pos);
        if (state.detailOpen) v.loadDetail().catch(() => {});
        // A selection the page restores itself is written with the change that caused it.
        if (!state.restoring) {
          v.writeHash({ push: false });
          announceSelection();
        }
      },
      onActivate: (pos) => {
        // Select and open as one step: one history entry.
        restoreSelection(pos);
        v.openDetail({ push: true });
        announceSelection();
      },
    });
  }

  /** Tells the app (atv-select) about the selection, each one once (`state.announced` is the last told). */
  function announceSelection() {
    const index = state.selected;
    if (index === null || index === state.announced || !state.info) return;
    state.announced = index;
    const traceId = state.info.traceId;
    v.call('rowsAt', { indices: Uint32Array.of(index) })
      .then(([row]) => {
        if (!row || state.info?.traceId !== traceId) return;
        v.emit('select', { index, summary: row.summary ?? '', role: row.role ?? null, kind: row.kind });
      })
      .catch(() => {});
  }

  function restoreSelection(pos) {
    state.restoring = true;
    try {
      v.eventList.select(pos);
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
    const quote = (value) => (/[\s()"]/.test(value) ? JSON.stringify(value) : value);
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
    // A run whose body is not read yet (an archive opened lazily): read it first.
    if (await v.ensureRunBody()) {
      if (state.view !== 'events') v.setView(state.view, { write: false, keepParams: true });
    }
    if (!state.info) return null;
    const { query, shift } = currentQuery();
    const seq = ++state.filterSeq;
    const errorBox = $('query-error');
    let result;
    try {
      result = await v.call('filter', { query, run: state.run });
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
    v.eventList.reset(state.count);
    const pos = state.selected === null ? -1 : positionOf(state.selected);
    if (pos >= 0) restoreSelection(pos);
    else if (state.detailOpen) v.closeDetail({ write: false });
    if (write) v.writeHash({ push });
    return { count: state.count };
  }

  /** Shows event `index` in the events view, clearing filters that hide it. */
  async function gotoEvent(index, { push = true, open = true } = {}) {
    if (!state.info || !(index >= 0 && index < state.info.eventCount)) return false;
    state.selected = index;
    if (state.view !== 'events') await v.setView('events', { write: false });
    if (positionOf(index) < 0) {
      $('query').value = '';
      $('role-filter').value = '';
      state.run = null;
      $('run-select').value = '';
      await applyFilter({ write: false });
    } else {
      restoreSelection(positionOf(index));
    }
    if (open) v.openDetail({ focus: false, write: false });
    v.writeHash({ push });
    announceSelection();
    return true;
  }

  Object.assign(v, { initEventList, applyFilter, gotoEvent, positionOf, restoreSelection, announceSelection });
}
