// The viewer's state as a hash (`#e=42&q=role:tool&role=assistant&v=events&r=3&f=1&open=1`:
// selected event, filter text, role menu, view, run, file, detail pane; and
// the shown view's own state as `v.<key>`, e.g. the runs table's `v.sort`):
// written after each change, and applied on reload, back/forward or a
// shared link. Where the hash lives is location-state.js's business.

/** Adds `hashParams`, `writeHash` and `applyHash` to the viewer context `v`. */
export function installHash(v) {
  const { state, $ } = v;

  function hashParams() {
    return new URLSearchParams(v.currentHash().replace(/^#/, ''));
  }

  function writeHash({ push = false } = {}) {
    if (!state.info) return;
    const p = new URLSearchParams();
    if (state.selected !== null) p.set('e', String(state.selected));
    if (state.query) p.set('q', state.query);
    if (state.role) p.set('role', state.role);
    if (state.view !== v.defaultView()) p.set('v', state.view);
    for (const [key, value] of state.viewParams) p.set(`v.${key}`, value);
    if (state.run !== null) p.set('r', String(state.run));
    if (state.fileIndex > 0) p.set('f', String(state.fileIndex));
    if (state.detailOpen) p.set('open', '1');
    const hash = `#${p.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`;
    const now = v.currentHash();
    if (hash === now || (hash === '#' && !now)) return;
    v.setHash(hash, { push });
  }

  /** Brings the viewer to the state the hash describes (reload, back/forward, a shared link). */
  async function applyHash(p, { fresh = false } = {}) {
    if (!state.info) return;
    const f = Number(p.get('f') ?? 0);
    if (!fresh && f !== state.fileIndex && state.files[f]) {
      await v.openFile(f);
      return;
    }
    const q = p.get('q') ?? '';
    const role = p.get('role') ?? '';
    const r = p.has('r') ? Number(p.get('r')) : null;
    const run = r !== null && r >= 0 && r < state.info.runCount ? r : null;
    const e = p.has('e') ? Number(p.get('e')) : null;
    const selectedBefore = state.selected;
    state.selected = e !== null && e >= 0 && e < state.info.eventCount ? e : null;
    if (fresh) v.renderTabs();
    const filterChanged = fresh || q !== state.query || role !== state.role || run !== state.run;
    $('query').value = q;
    $('role-filter').value = [...$('role-filter').options].some((o) => o.value === role) ? role : '';
    state.run = run;
    if (state.info.runCount > 1) {
      if (run !== null && !$('run-select').querySelector(`option[value="${run}"]`)) v.renderRunOptions(null);
      $('run-select').value = run === null ? '' : String(run);
    }
    if (filterChanged) await v.applyFilter({ write: false });
    else if (state.selected !== null && v.positionOf(state.selected) >= 0) v.restoreSelection(v.positionOf(state.selected));
    const view = p.get('v') ?? v.defaultView();
    const viewParams = new URLSearchParams([...p].filter(([key]) => key.startsWith('v.')).map(([key, value]) => [key.slice(2), value]));
    const paramsChanged = viewParams.toString() !== state.viewParams.toString();
    state.viewParams = viewParams;
    if (fresh || view !== state.view || paramsChanged) await v.setView(view, { write: false, keepParams: true });
    // A view that shows the selection (the Transcript) follows a new one (back/forward, a link).
    else if (state.selected !== selectedBefore && state.selected !== null && view !== 'events') await $('view-other').followSelection?.(state.selected);
    if (p.get('open') === '1' && state.selected !== null) v.openDetail({ focus: false, write: false });
    else v.closeDetail({ write: false });
    writeHash({ push: false });
  }

  Object.assign(v, { hashParams, writeHash, applyHash });
}
