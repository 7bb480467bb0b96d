// The keyboard: j/k, arrows, PgUp/PgDn, g/G, Enter, Esc, /, 1…9 and ? in
// whichever list is shown (the events, or another view's), the filter
// box's Enter and Esc, and the keys help.

import { viewsFor } from '../views/index.js';

/** Adds `onKey` and `showHelp` to the viewer context `v`. */
export function installKeyboard(v) {
  const { state, $ } = v;

  function currentList() {
    if (state.view === 'events') return v.eventList;
    return $('view-other').list ?? null;
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // The element the key was pressed in, also inside a shadow root.
    const t = e.composedPath()[0] ?? e.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    // A dialog (the keys help, an export) has the keyboard to itself.
    if (v.rootEl.querySelector('dialog[open]')) return;
    if (typing) {
      if (e.key === 'Escape' && t === $('query')) {
        e.preventDefault();
        $('event-list').focus();
      } else if (e.key === 'Enter' && t === $('query')) {
        e.preventDefault();
        clearTimeout(v.timers.query);
        v.applyFilter({ push: true }).then(() => $('event-list').focus());
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
      if (l === v.eventList) $('event-list').focus({ preventScroll: true });
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
          if (l === v.eventList) v.openDetail({ push: true });
          else l.o.onActivate?.(cur);
        }
        return;
      case 'Escape':
        if (state.detailOpen) {
          e.preventDefault();
          v.closeDetail({ push: true });
          $('event-list').focus();
        }
        return;
      case '/':
        e.preventDefault();
        // A view with a search of its own (the transcript's) takes the key.
        if (state.view !== 'events' && $('view-other').focusSearch) return $('view-other').focusSearch();
        if (state.view !== 'events') v.setView('events', { push: true });
        $('query').focus();
        $('query').select();
        return;
      case '?':
        e.preventDefault();
        showHelp();
        return;
      default:
        if (/^[1-9]$/.test(e.key)) {
          const view = viewsFor(state.info)[Number(e.key) - 1];
          if (view) {
            e.preventDefault();
            v.setView(view.id, { push: true });
          }
        }
    }
  }

  function showHelp() {
    const d = $('help');
    if (!d.open) d.showModal();
    $('help-close').focus();
  }

  Object.assign(v, { onKey, showHelp });
}
