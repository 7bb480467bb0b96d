// "Export redacted…": the shown file with its secrets masked, in its own
// format (the core's `redact`, in the worker). A preview comes first — what
// will be masked, how often, each kind's first placeholders with the secret
// masked — with the options to change; the file is saved only on Download,
// as `<name>.redacted.<ext>`, from this tab (nothing is uploaded).
//
// Scope: the whole file. One run alone is not offered: the core does not
// say where a run's records lie in the file, so a run cannot be cut out as
// a file of its own format (the dialog says so for a file of several runs).

import { el, clear } from '../dom.js';
import { sourceBytes } from './sources.js';
import { downloadBytes, redactedName } from './download.js';
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
    try {
      const result = await redactInWorker(v.call, await sourceBytes(source), parts.form.options());
      if (shown() !== source || !dialog.open) return;
      parts.result = { source, ...result };
      showPreview(parts.preview, result, `${P}export-kinds`);
      parts.download.textContent = `Download ${redactedName(source.name)}`;
      parts.download.disabled = false;
    } catch (e) {
      clear(parts.preview);
      // A zip (.eval), a bad regex, unknown options: the core says why.
      parts.error.textContent = `Cannot redact ${source.name}: ${e.message}`;
      parts.error.hidden = false;
    }
  }

  function save() {
    const r = parts.result;
    if (!r) return;
    downloadBytes(r.bytes, redactedName(r.source.name), 'application/json');
    v.setStatus(`Saved ${redactedName(r.source.name)} (${r.report.kinds.reduce((n, k) => n + k.occurrences, 0).toLocaleString('en-US')} secrets masked)`);
  }

  function openExportDialog() {
    const source = shown();
    if (!source?.info) return;
    if (!dialog) build();
    const runs = source.info.runCount;
    parts.scope.textContent =
      `The whole file ${source.name}, in its own format (${source.info.format}), with its secrets replaced by placeholders such as [REDACTED:openai-key:1]; nothing is written until you click Download.` +
      (runs > 1 ? ` One run alone cannot be exported: the core does not tell where a run's records are in the file, so the export holds all ${runs.toLocaleString('en-US')} runs.` : '');
    parts.download.textContent = 'Download';
    dialog.showModal();
    preview();
  }

  Object.assign(v, { openExportDialog });
}
