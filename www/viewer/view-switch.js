// Switching views (tabs): the events view is part of the skeleton; every
// other view (www/views/) renders into the one shared panel, given a
// context of what it may do (see views/registry.js).

import { el, clear } from '../dom.js';
import { viewsFor } from '../views/index.js';

/** Adds `setView` to the viewer context `v`. */
export function installViewSwitch(v) {
  const { state, $, P } = v;

  function viewContext() {
    return {
      info: state.info,
      /** The run picked in the run switcher (null: all runs). */
      run: state.run,
      call: v.call,
      /** An element id unique to this viewer. */
      id: (name) => P + name,
      goto: (index) => v.gotoEvent(index, { push: true }),
      /** The selected event (the hash's `e=`), or null. */
      selected: () => state.selected,
      /** Selects event `index` for the whole viewer without leaving the view (the event list follows). */
      select: (index) => {
        if (state.selected === index) return;
        state.selected = index;
        v.writeHash({ push: false });
        v.announceSelection();
      },
      /** The view's own state from the hash (a URLSearchParams copy). */
      params: () => new URLSearchParams(state.viewParams),
      /** Replaces the view's own state (null or '' drops a key) and records it in the hash. */
      setParams: (values) => {
        state.viewParams = new URLSearchParams(Object.entries(values).filter(([, value]) => value !== null && value !== undefined && value !== ''));
        v.writeHash({ push: false });
      },
      /** Shows run `run` in the events view (the run switcher follows). */
      openRun: (run) => {
        state.run = run;
        if (!$('run-select').querySelector(`option[value="${run}"]`)) v.renderRunOptions(null);
        $('run-select').value = String(run);
        setView('events', { write: false });
        v.applyFilter({ push: true });
      },
      /** Shows run `run` in the events view filtered by `q`. */
      openRunWithQuery: (run, q) => {
        state.run = run;
        if (!$('run-select').querySelector(`option[value="${run}"]`)) v.renderRunOptions(null);
        $('run-select').value = String(run);
        $('query').value = q;
        $('role-filter').value = '';
        setView('events', { write: false });
        v.applyFilter({ push: true });
      },
      setQuery: (q) => {
        $('query').value = q;
        $('role-filter').value = '';
        // One history entry for "show these events": the view switch and the filter together.
        setView('events', { write: false });
        v.applyFilter({ push: true });
      },
    };
  }

  /**
   * The view a trace opens on: a folder of run files read as one trace
   * (sources.js `asRuns`) its runs table; else its transcript when it has a
   * conversation, else the events.
   */
  function defaultView() {
    if (v.o.defaultView === 'events') return 'events';
    if (state.files[state.fileIndex]?.asRuns && state.info?.runCount > 1) return 'runs';
    // An archive opened lazily: its runs table, whose samples are read when opened.
    if (state.info?.lazy && state.info.runCount > 1) return 'runs';
    return state.info && viewsFor(state.info).some((view) => view.id === 'transcript') ? 'transcript' : 'events';
  }

  async function setView(id, { push = false, write = true, keepParams = false } = {}) {
    const available = viewsFor(state.info);
    const view = available.find((candidate) => candidate.id === id) ?? available[0];
    // A view's own state belongs to it: another view starts without it.
    if (!keepParams && view.id !== state.view) state.viewParams = new URLSearchParams();
    // The event list follows a selection made in another view.
    if (view.id === 'events' && state.view !== 'events' && state.selected !== null && v.eventList) {
      const pos = v.positionOf(state.selected);
      if (pos >= 0 && v.eventList.selected !== pos) v.restoreSelection(pos);
    }
    state.view = view.id;
    for (const tab of $('tabs').querySelectorAll('[role=tab]')) {
      const on = tab.dataset.view === view.id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    $('view-events').hidden = view.id !== 'events';
    // A list filled while hidden holds a few rows only: fill it now it has a height.
    if (view.id === 'events') v.eventList?.render();
    const other = $('view-other');
    other.hidden = view.id === 'events';
    if (view.id !== 'events') {
      other.setAttribute('aria-labelledby', `${P}tab-${view.id}`);
      clear(other);
      other.list = null;
      other.focusSearch = null;
      other.followSelection = null;
      other.dataset.view = view.id;
      const traceId = state.info.traceId;
      try {
        await view.render(other, viewContext());
      } catch (e) {
        if (state.info?.traceId === traceId) other.append(el('p', { className: 'load-error' }, `This view failed: ${e.message}`));
      }
    }
    if (write) v.writeHash({ push });
  }

  Object.assign(v, { setView, defaultView });
}
