// "Bundle…": the page's counterpart of `agent-trace-viewer bundle`: a .zip
// of a folder any static host serves — the viewer under viewer/, the open
// traces as its samples (optionally redacted), and an index.html that opens
// the first. The viewer's own files are those the build lists in its
// manifest (files.json, written by scripts/build.sh); they are fetched from
// the page's own site, and only when the user clicks Download: the one
// request after load the page makes without a trace being asked for, and
// one the user asked for.

import { el, clear } from '../dom.js';
import { sourceBytes } from './sources.js';
import { downloadBytes } from './download.js';
import { zipStore } from './zip.js';
import { redactForm, redactInWorker, maskedCount, showPreview } from './redact-form.js';

const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** A file name for a trace in the bundle (as the CLI makes them): its own, `[A-Za-z0-9._-]` only, made unique. */
function uniqueName(name, taken) {
  const safe = (String(name).split(/[/\\]/).pop() || '').replace(/[^A-Za-z0-9._-]/g, '_');
  // A name of dots only (`..`, from a pasted or fetched trace) would be a folder, not a file, in the zip.
  const base = /^\.*$/.test(safe) ? 'trace.json' : safe;
  let out = base;
  for (let k = 2; taken.has(out); k++) out = `${k}-${base}`;
  taken.add(out);
  return out;
}

/** The bundle's index.html: no script (the viewer's CSP allows none inline), a meta refresh to the first trace. */
function indexHtml(first, count) {
  const target = `viewer/index.html?sample=${encodeURIComponent(first)}`;
  return `<!doctype html>\n<meta charset="utf-8">\n<title>agent-trace-viewer bundle</title>\n<meta http-equiv="refresh" content="0; url=${target}">\n<p>Opening <a href="${target}">the viewer</a> on ${plural(count, 'trace')}.</p>\n`;
}

/** The viewer's files: the manifest's list, each fetched from the site the manifest is on. */
async function viewerFiles(manifestUrl, onProgress) {
  const get = async (url) => {
    const response = await fetch(url, { credentials: 'same-origin', cache: 'no-cache' });
    if (!response.ok) throw new Error(`${url.pathname}: the site answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const manifest = JSON.parse(new TextDecoder().decode(await get(manifestUrl)));
  if (!Array.isArray(manifest.files)) throw new Error('the viewer manifest (files.json) lists no files');
  const out = [];
  for (const [i, path] of manifest.files.entries()) {
    // Only the viewer's own site: a manifest cannot point anywhere else.
    const url = new URL(path, manifestUrl);
    if (url.origin !== manifestUrl.origin || path.startsWith('samples/')) continue;
    out.push({ name: `viewer/${path}`, bytes: await get(url) });
    onProgress(i + 1, manifest.files.length);
  }
  return out;
}

/** Adds `openBundleDialog` to the viewer context `v`. */
export function installExportBundle(v) {
  const { state, P, o } = v;
  let dialog = null;
  let parts = null;

  function build() {
    const form = redactForm(`${P}bundle-redact-`);
    const redact = el('input', { type: 'checkbox', id: `${P}bundle-redact` });
    parts = {
      form,
      redact,
      intro: el('p', { id: `${P}bundle-intro` }),
      preview: el('div', { id: `${P}bundle-preview`, 'aria-live': 'polite' }),
      status: el('p', { id: `${P}bundle-status`, className: 'muted', 'aria-live': 'polite' }),
      error: el('p', { id: `${P}bundle-error`, className: 'query-error', role: 'alert', hidden: true }),
      download: el('button', { id: `${P}bundle-download`, type: 'button', className: 'button primary' }, 'Download bundle (.zip)'),
      close: el('button', { id: `${P}bundle-close`, type: 'button', className: 'button' }, 'Close'),
    };
    form.element.hidden = true;
    redact.addEventListener('change', () => {
      form.element.hidden = !redact.checked;
      reset();
    });
    form.onChange(reset);
    dialog = el(
      'dialog',
      { id: `${P}bundle-dialog`, className: 'share-dialog', 'aria-labelledby': `${P}bundle-title` },
      el('h2', { id: `${P}bundle-title` }, 'Download a bundle'),
      parts.intro,
      el('p', { className: 'muted' }, 'Unzip it and serve the folder with any static host (or open it with a local server); index.html opens the first trace. It needs no server of ours and uploads nothing. The viewer\u2019s own files are fetched from this site when you click Download.'),
      el('label', {}, redact, ' Redact the traces (what will be masked is shown before the download)'),
      form.element,
      parts.preview,
      parts.status,
      parts.error,
      el('div', { className: 'dialog-buttons' }, parts.download, parts.close),
    );
    parts.download.addEventListener('click', make);
    parts.close.addEventListener('click', () => dialog.close());
    v.rootEl.append(dialog);
  }

  /** The open files a bundle can hold (one file each), and those it cannot. */
  function candidates() {
    return { files: state.files.filter((s) => !s.parts), groups: state.files.filter((s) => s.parts) };
  }

  /** The traces read (and redacted when asked), kept until the options change: { samples, index }. */
  let prepared = null;

  function reset() {
    prepared = null;
    clear(parts.preview);
    clear(parts.status);
    parts.download.textContent = parts.redact.checked ? 'Preview the redaction' : 'Download bundle (.zip)';
  }

  /** Reads each trace, redacted when asked (each file's preview shown), as the bundle's samples. */
  async function prepare(say) {
    const taken = new Set();
    const samples = [];
    const index = [];
    clear(parts.preview);
    for (const source of candidates().files) {
      say(`Reading ${source.name}…`);
      let bytes = await sourceBytes(source);
      let note = '';
      if (parts.redact.checked) {
        const r = await redactInWorker(v.call, bytes, parts.form.options());
        bytes = r.bytes;
        note = `, ${plural(maskedCount(r.report), 'secret')} masked`;
        const box = el('div', { className: 'bundle-preview-file' });
        showPreview(box, r, null);
        parts.preview.append(el('h3', {}, source.name), box);
      }
      const name = uniqueName(source.name, taken);
      const info = source.info;
      const description = info ? `${info.format} · ${plural(info.runCount, 'run')} · ${plural(info.eventCount, 'event')}${note}` : `${source.name}${note}`;
      samples.push({ name: `viewer/samples/${name}`, bytes });
      index.push({ file: name, title: name, description });
    }
    if (!index.length) throw new Error('no open trace is a single file (a trace read from several files cannot be a sample)');
    return { samples, index };
  }

  async function make() {
    parts.download.disabled = true;
    parts.error.hidden = true;
    const say = (text) => (parts.status.textContent = text);
    try {
      if (!prepared) {
        prepared = await prepare(say);
        if (parts.redact.checked) {
          // The preview first: the user downloads once they have seen what is masked.
          say('This is what will be masked. Download to save the bundle.');
          parts.download.textContent = 'Download the redacted bundle (.zip)';
          return;
        }
      }
      const { samples, index } = prepared;
      const manifestUrl = new URL(o.bundleManifest, document.baseURI);
      const viewer = await viewerFiles(manifestUrl, (done, total) => say(`Fetching the viewer\u2019s files from this site: ${done} of ${total}…`));
      const encode = (text) => new TextEncoder().encode(text);
      const zip = zipStore([
        { name: 'index.html', bytes: encode(indexHtml(index[0].file, index.length)) },
        ...viewer,
        ...samples,
        { name: 'viewer/samples/index.json', bytes: encode(`${JSON.stringify(index, null, 2)}\n`) },
      ]);
      const zipName = `${index[0].file.replace(/\.gz$/i, '').replace(/\.[A-Za-z0-9]+$/, '')}-bundle.zip`;
      downloadBytes(zip, zipName, 'application/zip');
      say(`Saved ${zipName}: ${plural(index.length, 'trace')} and the viewer (${plural(viewer.length, 'file')}, ${(zip.length / 1e6).toFixed(1)} MB).`);
    } catch (e) {
      prepared = null;
      say('');
      parts.error.textContent = `The bundle could not be made: ${e.message}`;
      parts.error.hidden = false;
    } finally {
      parts.download.disabled = false;
    }
  }

  function openBundleDialog() {
    if (!state.info) return;
    if (!dialog) build();
    const { files, groups } = candidates();
    parts.intro.textContent =
      `A .zip with the viewer and ${files.length === 1 ? `the trace ${files[0].name}` : `the ${plural(files.length, 'open trace')}`} as its samples.` +
      (groups.length ? ` Left out: ${groups.map((g) => g.name).join(', ')} (read from several files, not one a sample can be).` : '');
    reset();
    parts.error.hidden = true;
    dialog.showModal();
  }

  Object.assign(v, { openBundleDialog });
}
