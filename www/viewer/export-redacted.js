// "Export redacted…": the shown file with its secrets masked, in its own
// format (the core's `redact`, in the worker). A preview comes first — what
// will be masked, how often, each kind's first placeholders with the secret
// masked — with the options to change; the file is saved only on Download,
// as `<name>.redacted.<ext>`, from this tab (nothing is uploaded).
//
// Scope: the whole file, or one run where the file lets it be cut out
// faithfully — its lines of a JSON Lines file that no other run shares and
// that read back as that run alone (the worker's `runSource`); otherwise
// the dialog says why only the whole file can be exported.

import { el, clear } from '../dom.js';
import { sourceBytes } from './sources.js';
import { downloadBytes, redactedName, runFileName } from './download.js';
import { redactForm, redactInWorker, showPreview } from './redact-form.js';

/** Adds `openExportDialog` to the viewer context `v`. */
export function installExportRedacted(v) {
  const { state, P } = v;
  let dialog = null;
  let parts = null;

  function build() {
    const form = redactForm(`${P}export-`);
    parts = {
      form,
      title: el('h2', { id: `${P}export-title` }, 'Export redacted'),
      scope: el('p', { id: `${P}export-scope` }),
      scopeSelect: el('select', { id: `${P}export-scope-select`, 'aria-label': 'What to export' }),
      scopeNote: el('p', { id: `${P}export-scope-note`, className: 'muted', 'aria-live': 'polite' }),
      preview: el('div', { id: `${P}export-preview`, 'aria-live': 'polite' }),
      error: el('p', { id: `${P}export-error`, className: 'query-error', role: 'alert', hidden: true }),
      previewButton: el('button', { id: `${P}export-preview-button`, type: 'button', className: 'button' }, 'Preview again'),
      download: el('button', { id: `${P}export-download`, type: 'button', className: 'button primary', disabled: true }, 'Download'),
      close: el('button', { id: `${P}export-close`, type: 'button', className: 'button' }, 'Close'),
      result: null,
    };
    dialog = el(
      'dialog',
      { id: `${P}export-dialog`, className: 'share-dialog', 'aria-labelledby': `${P}export-title` },
      parts.title,
      parts.scope,
      el('label', { className: 'export-scope' }, 'Export ', parts.scopeSelect),
      parts.scopeNote,
      form.element,
      parts.preview,
      parts.error,
      el('div', { className: 'dialog-buttons' }, parts.previewButton, parts.download, parts.close),
    );
    form.onChange(() => {
      // What was previewed is no longer what would be written.
      parts.result = null;
      parts.download.disabled = true;
      clear(parts.preview).append(el('p', { className: 'muted' }, 'The options changed: preview again to see what will be masked.'));
    });
    parts.scopeSelect.addEventListener('change', preview);
    parts.previewButton.addEventListener('click', preview);
    parts.download.addEventListener('click', save);
    parts.close.addEventListener('click', () => dialog.close());
    v.rootEl.append(dialog);
  }

  function shown() {
    return state.files[state.fileIndex];
  }

  async function preview() {
    const source = shown();
    parts.result = null;
    parts.download.disabled = true;
    parts.error.hidden = true;
    clear(parts.preview).append(el('p', { className: 'muted' }, 'Looking for secrets…'));
    const value = parts.scopeSelect.value;
    const run = value === '' ? null : Number(value);
    const name = run === null ? redactedName(source.name) : redactedName(runFileName(source.name, run));
    parts.scopeNote.textContent = '';
    let bytes;
    try {
      bytes = run === null ? await sourceBytes(source) : await v.call('runSource', { run });
      if (run !== null) parts.scopeNote.textContent = `Run #${run}: its ${bytes.length.toLocaleString('en-US')} bytes of lines, which read back as that run alone.`;
    } catch (e) {
      clear(parts.preview);
      parts.scopeNote.textContent = run === null ? '' : `Run #${run} cannot be exported alone: ${e.message}. Export the whole file instead.`;
      if (run === null) {
        parts.error.textContent = `Cannot read ${source.name}: ${e.message}`;
        parts.error.hidden = false;
      }
      return;
    }
    try {
      const result = await redactInWorker(v.call, bytes, parts.form.options());
      if (shown() !== source || !dialog.open || parts.scopeSelect.value !== value) return;
      parts.result = { source, name, ...result };
      showPreview(parts.preview, result, `${P}export-kinds`);
      parts.download.textContent = `Download ${name}`;
      parts.download.disabled = false;
    } catch (e) {
      clear(parts.preview);
      // A zip that does not read, a bad regex, unknown options: the core says why.
      parts.error.textContent = `Cannot redact ${source.name}: ${e.message}`;
      parts.error.hidden = false;
    }
  }

  function save() {
    const r = parts.result;
    if (!r) return;
    // A zip (an Inspect .eval) stays a zip: `PK` first.
    const zip = r.bytes[0] === 0x50 && r.bytes[1] === 0x4b;
    downloadBytes(r.bytes, r.name, zip ? 'application/zip' : 'application/json');
    v.setStatus(`Saved ${r.name} (${r.report.kinds.reduce((n, k) => n + k.occurrences, 0).toLocaleString('en-US')} secrets masked)`);
  }

  function openExportDialog() {
    const source = shown();
    if (!source?.info) return;
    if (!dialog) build();
    const runs = source.info.runs;
    parts.scope.textContent = `${source.name} in its own format (${source.info.format}), with its secrets replaced by placeholders such as [REDACTED:openai-key:1]; nothing is written until you click Download.`;
    // One run alone where the file allows it: a file of several runs offers each (the shown one first picked).
    clear(parts.scopeSelect).append(
      el('option', { value: '' }, 'the whole file'),
      ...(runs.length > 1 ? runs.map((r, i) => el('option', { value: String(i) }, `run #${i} only · ${r.id}${r.name ? ` · ${r.name}` : ''}`)) : []),
    );
    parts.scopeSelect.value = runs.length > 1 && state.run !== null && state.run !== undefined ? String(state.run) : '';
    parts.scopeSelect.disabled = runs.length < 2;
    parts.download.textContent = 'Download';
    dialog.showModal();
    preview();
  }

  Object.assign(v, { openExportDialog });
}
