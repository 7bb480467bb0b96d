// Wiring: the open controls (files, folder, paste, drop), the sample menu,
// `?url=`, the filter and switchers, tab arrows, event links, the keys and
// back/forward. Every document- or window-level listener is removed when
// the viewer is destroyed (`v.on` passes the viewer's abort signal).

import { el } from '../dom.js';
import { dropEntries, filesFromEntries, filesFromInput } from '../loader.js';
import { yieldToBrowser } from './shared.js';

/**
 * Adds `wireDropZone`, `wirePaste`, `wireSamples`, `wireUrlParam` and
 * `wireControls` to the viewer context `v`.
 */
export function installWiring(v) {
  const { state, $, o, rootEl } = v;
  const on = v.on;

  function wireDropZone() {
    const overlay = $('drop-overlay');
    let depth = 0;
    on(v.dropTarget, 'dragenter', (e) => {
      e.preventDefault();
      depth++;
      overlay.hidden = false;
    });
    on(v.dropTarget, 'dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) overlay.hidden = true;
    });
    on(v.dropTarget, 'dragover', (e) => e.preventDefault());
    on(v.dropTarget, 'drop', async (e) => {
      e.preventDefault();
      depth = 0;
      overlay.hidden = true;
      if (!e.dataTransfer) return;
      const { entries, files } = dropEntries(e.dataTransfer);
      if (entries.length) {
        const found = await filesFromEntries(entries);
        v.uiLoad(found.files.map(({ file, path }) => ({ name: file.name, path, file })), { skipped: found.skipped });
      } else {
        v.uiLoad(files.map((file) => ({ name: file.name, path: file.name, file })));
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
    const loadText = (text) => v.uiLoad([{ name: 'pasted text', path: 'pasted text', text }]);
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
    if (v.destroyed) return () => {};
    for (const s of samples) select.append(el('option', { value: s.file, title: s.description ?? '' }, s.title));
    select.hidden = !samples.length;
    const loadSample = (file, keepHash) =>
      v.loadSources([{ name: file, path: custom ? new URL(file, index).href : `samples/${file}`, url: new URL(file, index).href }], {
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
      v.showLoadError(`\`${raw}\` is not a URL`, 'Cannot load the linked trace');
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      v.showLoadError(`only http(s) URLs can be loaded, not ${url.protocol}`, 'Cannot load the linked trace');
      return;
    }
    $('url-target').textContent = url.href;
    $('url-confirm').hidden = false;
    $('url-load').addEventListener('click', () => {
      $('url-confirm').hidden = true;
      const name = decodeURIComponent(url.pathname.split('/').pop() || url.host);
      v.uiLoad([{ name, path: url.href, url: url.href }], { search: location.search, keepHash: true });
    });
    $('url-dismiss').addEventListener('click', () => ($('url-confirm').hidden = true));
  }

  function wireControls() {
    if (o.controls) {
      $('file-input').addEventListener('change', (e) => {
        const { files } = filesFromInput(e.target.files ?? []);
        if (files.length) v.uiLoad(files.map(({ file, path }) => ({ name: file.name, path, file })));
        e.target.value = '';
      });
      $('folder-input').addEventListener('change', async (e) => {
        // The files are taken now (clearing the input empties its list), then sorted and
        // grouped in tasks of their own: the browser built the list in this one (seconds for
        // 10,000 files), and sorting and grouping those took ~100 ms each on a busy machine.
        const picked = [...(e.target.files ?? [])];
        e.target.value = '';
        await yieldToBrowser();
        const { files, skipped } = filesFromInput(picked);
        await yieldToBrowser();
        v.uiLoad(files.map(({ file, path }) => ({ name: path.slice(path.lastIndexOf('/') + 1), path, file })), { skipped });
      });
      $('export-button').addEventListener('click', v.openExportDialog);
      $('bundle-button')?.addEventListener('click', v.openBundleDialog);
      on(v.element, 'atv-load', () => ($('share-controls').hidden = false));
    }
    $('cancel').addEventListener('click', v.cancelLoading);
    $('filter').addEventListener('submit', (e) => e.preventDefault());
    $('role-filter').addEventListener('change', () => v.applyFilter({ push: true }));
    $('query').addEventListener('input', () => {
      clearTimeout(v.timers.query);
      v.timers.query = setTimeout(() => v.applyFilter({ push: false }), 150);
    });
    $('file-switcher').addEventListener('change', (e) => {
      state.selected = null;
      state.query = '';
      v.setHash(`#f=${e.target.value}`, { push: true });
      v.openFile(Number(e.target.value)).catch(() => {});
    });
    $('run-select').addEventListener('change', (e) => {
      state.run = e.target.value === '' ? null : Number(e.target.value);
      v.applyFilter({ push: true });
      // Views of one run (AgentRun text, OpenHands' views) follow the switcher.
      if (state.view !== 'events') v.setView(state.view, { write: false });
    });
    $('run-query').addEventListener('input', () => {
      clearTimeout(v.timers.run);
      v.timers.run = setTimeout(async () => {
        const q = $('run-query').value.trim();
        const box = $('run-query-error');
        try {
          const runs = q ? await v.call('filterRuns', { query: q }) : null;
          box.hidden = true;
          $('run-query').removeAttribute('aria-invalid');
          v.renderRunOptions(runs);
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
      const at = tabs.indexOf(v.activeElement());
      const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next.focus();
      next.click();
    });
    // Links to events anywhere in the viewer (rows, detail pane, diagnostics) navigate in it.
    rootEl.addEventListener('click', (e) => {
      const a = e.target.closest?.('a[data-event]');
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      v.gotoEvent(Number(a.dataset.event), { push: true });
    });
    // The skip link moves focus, not the hash (the hash is the page's state).
    rootEl.querySelector('.skip-link')?.addEventListener('click', (e) => {
      e.preventDefault();
      (state.info ? $('event-list') : $('main')).focus();
    });
    $('help-button').addEventListener('click', v.showHelp);
    $('help-close').addEventListener('click', () => $('help').close());
    on(o.globalKeys ? document : rootEl, 'keydown', v.onKey);
    if (o.hash) {
      // popstate covers back/forward and a hash edited by hand (hashchange would apply it twice).
      let applying = Promise.resolve();
      on(window, 'popstate', () => {
        // One at a time: quick back-back-back presses apply in order.
        applying = applying.then(() => v.applyHash(v.hashParams())).catch(() => {});
      });
    }
  }

  Object.assign(v, { wireDropZone, wirePaste, wireSamples, wireUrlParam, wireControls });
}
