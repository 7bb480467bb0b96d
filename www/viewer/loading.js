// Loading: replacing the open files with new sources, parsing a file in the
// worker (with progress) when it is first shown, and `handle.load`. A later
// load supersedes an earlier one: the earlier rejects with an AbortError
// and shows nothing.

import { Cancelled } from '../client.js';
import { abortError, publicInfo } from './shared.js';
import { toSource, groupSources, fetchWithPolicyCheck } from './sources.js';
import { readFiles } from '../loader.js';

/** A trace of more files than this is read here, not in the worker (see readFiles). */
const MANY_FILES = 64;
/** The core's cap on one trace's bytes (MAX_INPUT_BYTES). */
const MAX_TRACE_BYTES = 2 ** 30;

/**
 * Adds `loadSources`, `uiLoad`, `load`, `openFile`, `rejectPending` and
 * `settled` to the viewer context `v`.
 */
export function installLoading(v) {
  const { state, $ } = v;
  /** The load() call in progress: { resolve, reject }. */
  let pendingLoad = null;
  /** Settles when the last load (any way it was asked for) has settled. */
  let lastLoad = Promise.resolve();
  /** Counts loadSources calls: a load whose files were grouped after a later one started is dropped. */
  let loadSeq = 0;

  function rejectPending(error, except = null) {
    if (pendingLoad && pendingLoad !== except) {
      pendingLoad.reject(error);
      pendingLoad = null;
    }
  }

  /**
   * Replaces the open files with `sources` and shows the first (or the hash's
   * `f`); resolves to the info of the trace shown. `search` is the query
   * string that reloads them (`?sample=…`, `?url=…`; none for local files);
   * `keepHash` keeps the hash's state (a shared link being opened) instead
   * of starting fresh. A later load supersedes this one: it then rejects
   * with an AbortError and shows nothing.
   */
  function loadSources(sources, { skipped = [], search = '', keepHash = false, caller = null } = {}) {
    rejectPending(abortError('superseded by a later load'), caller);
    const seq = ++loadSeq;
    const run = async () => {
      // The first load of the page keeps the hash: it may be a shared link waiting for its file.
      keepHash ||= !state.files.length;
      v.setSearch(search, keepHash);
      if (!sources.length) {
        const message = skipped.length ? `no trace files (.json, .jsonl, .ndjson, .gz, .eval) among ${skipped.length} files` : 'nothing to open';
        v.showLoadError(message, 'Nothing to load');
        throw new Error(message);
      }
      let grouped;
      try {
        grouped = await groupSources(
          sources,
          (paths, heads) => state.worker.call('groupFiles', { paths, heads }, (heads ?? []).filter(Boolean).map((h) => h.buffer)),
          (paths) => state.worker.call('groupHeadsWanted', { paths }),
        );
      } catch (e) {
        if (e instanceof Cancelled) throw abortError('the load was cancelled');
        if (e.fatal) v.restartAfterTrap();
        if (seq === loadSeq) v.showLoadError(e.message, 'Could not group the files');
        throw e;
      }
      if (v.destroyed || seq !== loadSeq) throw abortError('superseded by a later load');
      for (const f of state.files) if (f.info) v.call('free', { traceId: f.info.traceId }).catch(() => {});
      state.files = grouped.map((s) => ({ ...s }));
      state.fileIndex = -1;
      v.renderFileSwitcher();
      state.note = skipped.length ? ` · skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} that ${skipped.length === 1 ? 'is' : 'are'} not a trace` : '';
      const wanted = Number(v.hashParams().get('f') ?? 0);
      return openFile(wanted >= 0 && wanted < state.files.length ? wanted : 0);
    };
    const p = run();
    lastLoad = p.catch(() => {});
    return p;
  }

  /** A load started by the page's own controls: its failure is already shown. */
  function uiLoad(sources, opts) {
    loadSources(sources, opts).catch(() => {});
  }

  /** `handle.load`: waits for the worker, supersedes any load in progress, never depends on timing. */
  function load(input) {
    if (v.destroyed) return Promise.reject(abortError('the viewer was destroyed'));
    let entry;
    const promise = new Promise((resolve, reject) => (entry = { resolve, reject }));
    rejectPending(abortError('superseded by a later load'));
    pendingLoad = entry;
    const work = (async () => {
      await v.ready;
      if (pendingLoad !== entry) throw abortError('superseded by a later load');
      const source = toSource(input);
      const info = await loadSources([source], { caller: entry });
      return publicInfo(info);
    })();
    lastLoad = work.catch(() => {});
    work.then(
      (info) => {
        if (pendingLoad === entry) pendingLoad = null;
        entry.resolve(info);
      },
      (e) => {
        if (pendingLoad === entry) pendingLoad = null;
        entry.reject(e);
      },
    );
    return promise;
  }

  /** Waits for the viewer to start and for the load in progress, whatever their outcome. */
  async function settled() {
    await v.ready;
    let seen;
    do {
      seen = lastLoad;
      await seen;
    } while (seen !== lastLoad);
  }

  /** Parses a source in the worker: a File is read there; fetched, pasted or given bytes are sent to it. */
  async function parseSource(source, label) {
    const { progress } = v;
    progress.start(label);
    const onProgress = (p) => {
      if (p.phase === 'reading') progress.bytes(p.done, p.total);
      else {
        progress.parsing(`Parsing ${source.name}`, p.total);
        v.setStatus(`Parsing ${source.name}…`);
      }
    };
    if (source.parts && source.parts.length > MANY_FILES) {
      const files = source.parts.map((p) => p.file);
      const opened = state.files;
      const buffers = await readFiles(files, (done) => progress.bytes(done, 0), { stop: () => v.destroyed || state.files !== opened, limit: MAX_TRACE_BYTES });
      progress.parsing(`Parsing ${source.name}`, buffers.reduce((n, b) => n + b.byteLength, 0));
      v.setStatus(`Parsing ${source.name}…`);
      return state.worker.call('parseBuffers', { parts: buffers.map((buffer, i) => ({ name: files[i].name, buffer })), name: source.name }, buffers);
    }
    if (source.parts) {
      const files = source.parts.map((p) => p.file);
      return state.worker.call('parseFiles', { files, name: source.name }, [], onProgress);
    }
    const lazy = v.o.lazyArchiveBytes === undefined ? {} : { lazyArchiveBytes: v.o.lazyArchiveBytes };
    if (source.file) {
      return state.worker.call('parseFile', { file: source.file, name: source.name, format: source.format, ...lazy }, [], onProgress);
    }
    // Pasted text and given bytes are kept (to parse again as another format); fetched bytes are fetched again.
    const buffer =
      source.text !== undefined
        ? new TextEncoder().encode(source.text).buffer
        : source.bytes
          ? source.bytes.slice().buffer
          : await fetchWithPolicyCheck(source.url, (d, t) => progress.bytes(d, t));
    progress.parsing(`Parsing ${source.name}`, buffer.byteLength);
    v.setStatus(`Parsing ${source.name}…`);
    // The buffer moves to the worker: no copy of a 100 MB file.
    return state.worker.call('parse', { buffer, name: source.name, format: source.format, ...lazy }, [buffer], onProgress);
  }

  /**
   * Shows file `i` of the open files, parsing it first if needed; resolves to
   * its info. Rejects with an AbortError when a later load or file switch
   * took over meanwhile (nothing of this one is shown then), or with the
   * parse error (shown in the viewer).
   */
  async function openFile(i) {
    const files = state.files;
    const seq = ++state.openSeq;
    const stale = () => v.destroyed || state.files !== files || state.openSeq !== seq;
    const source = files[i];
    if (!source) throw new Error(`no file ${i}`);
    $('load-error').hidden = true;
    if (!source.info) {
      const label = `Reading ${source.path ?? source.name}`;
      v.setStatus(`${label}…`);
      let info;
      try {
        info = await parseSource(source, label);
      } catch (e) {
        if (stale()) throw abortError('superseded by a later load');
        v.progress.stop();
        if (e instanceof Cancelled) throw abortError('the load was cancelled');
        if (e.fatal) v.restartAfterTrap();
        if (source.asRuns) return openSeparately(i, e);
        source.error = e.message;
        state.fileIndex = i;
        v.renderFileSwitcher();
        v.showLoadError(e.message, `Could not read ${source.path ?? source.name}`);
        v.setStatus('');
        if (!state.info) $('drop-hint').hidden = false;
        throw e;
      }
      if (state.files !== files) {
        // A newer load replaced the files while this one parsed: drop its trace.
        v.call('free', { traceId: info.traceId }).catch(() => {});
        throw abortError('superseded by a later load');
      }
      source.info = info;
      if (stale()) throw abortError('superseded by a later file');
      v.progress.stop();
    }
    state.fileIndex = i;
    state.info = source.info;
    // Let the browser paint the finished progress before building the trace's UI.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    if (stale()) throw abortError('superseded by a later load');
    v.renderFileSwitcher();
    await v.showTrace();
    if (stale()) throw abortError('superseded by a later load');
    v.setStatus(`Loaded ${source.name}${state.note ?? ''}`);
    v.emit('load', publicInfo(source.info));
    return source.info;
  }

  /**
   * Files read as one trace of runs (sources.js `asRuns`) that do not read
   * as one (files of different formats): each becomes its own trace again,
   * and the first is shown, the reason in the status line.
   */
  function openSeparately(i, error) {
    const source = state.files[i];
    state.files.splice(i, 1, ...source.parts.map((p) => ({ ...p })));
    state.note = `${state.note ?? ''} · not read as one trace of runs: ${error.message}`;
    v.renderFileSwitcher();
    return openFile(i);
  }

  Object.assign(v, { loadSources, uiLoad, load, openFile, rejectPending, settled });
}
