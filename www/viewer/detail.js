// The detail pane of the selected event: opened, closed, filled from the
// worker, and its "Copy raw JSON" button.

import { clear } from '../dom.js';
import { renderDetail } from '../events.js';

/** Adds `loadDetail`, `openDetail` and `closeDetail` to the viewer context `v`. */
export function installDetail(v) {
  const { state, $, P, rootEl } = v;

  async function loadDetail() {
    const index = state.selected;
    if (index === null) return;
    const data = await v.call('event', { index });
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
    if (write) v.writeHash({ push });
  }

  function closeDetail({ push = false, write = true } = {}) {
    const wasOpen = state.detailOpen;
    state.detailOpen = false;
    $('detail').hidden = true;
    rootEl.classList.remove('detail-open');
    const active = v.activeElement();
    if (wasOpen && active && $('detail').contains(active)) $('event-list').focus();
    if (write && wasOpen) v.writeHash({ push });
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

  Object.assign(v, { loadDetail, openDetail, closeDetail });
}
