// The parsing worker: owns the wasm module and every parsed Trace, so that
// parsing a 100 MB file or filtering 200k events never blocks the page.
//
// Protocol: the page posts { id, op, args } and gets back { id, ok, value }
// or { id, ok: false, error: { message, column? } }. Typed arrays in replies
// are transferred, not copied.

import init, { parseTrace, parseFiles, formats, groupFiles, groupHeadsWanted, redact, archiveTailNeeded, openArchiveLazily } from './pkg/agent_trace_viewer.js';
import { readFile } from './loader.js';
import { bytesRead, openLazily as openArchive, readBody, readSlice } from './lazy-archive.js';
import { transcriptPage, transcriptLocate } from './views/transcript/page-data.js';

// The module uses WebAssembly SIMD (fixed-width, 128-bit): a browser without
// it fails to compile it, and should say so rather than a bare opcode error.
const ready = init().catch((e) => {
  const hint = e instanceof WebAssembly.CompileError ? ' (it needs WebAssembly SIMD: Chrome or Edge 91+, Firefox 89+, Safari 16.4+)' : '';
  throw new Error(`its WebAssembly module did not load${hint}: ${e.message}`);
});
let tokenizer = null;

/** The cl100k_base tokenizer (its own 1 MB-gzipped module): fetched once, on first use. */
function loadTokenizer() {
  tokenizer ??= import('./pkg/atv_tokenizer.js').then(async (m) => {
    await m.default();
    return m;
  }).catch((e) => {
    tokenizer = null;
    throw new Error(`the tokenizer failed to load: ${e.message}`);
  });
  return tokenizer;
}
let markdown = null;

/** The markdown parser bundle (www/vendor/markdown.js): loaded on first use; null when it is missing (text stays plain). */
function loadMarkdown() {
  markdown ??= import('./vendor/markdown.js').catch(() => null);
  return markdown;
}
/** @type {Map<number, { trace: any, runs: any[] | null }>} */
const traces = new Map();
let nextId = 1;

function get(traceId) {
  const t = traces.get(traceId);
  if (!t) throw new Error(`no trace ${traceId} (it was closed)`);
  return t;
}

/** Light run list: what the run switcher shows (metadata stays here). */
function runList(entry) {
  if (!entry.runs) {
    // `runHeads()` leaves out the metadata (a lazily opened archive's 10,000 summaries).
    entry.runs = (typeof entry.trace.runHeads === 'function' ? entry.trace.runHeads() : entry.trace.runs()).map((r) => ({
      index: r.index,
      id: r.id,
      name: r.name,
      firstEvent: r.firstEvent,
      eventCount: r.eventCount,
      startedBy: r.startedBy,
      // A lazily opened archive's run whose body is not read yet: the member to read.
      pendingBody: r.pendingBody,
    }));
  }
  return entry.runs;
}

/**
 * Archives (an Inspect `.eval`) of at least this many bytes open lazily
 * unless the page says otherwise: the central directory, header and
 * summaries first (the runs table), a run's body when it is shown or
 * searched (`loadRun`, `searchBodies`). Smaller ones are read whole: every
 * event of every run is then in the one trace.
 */
const LAZY_ARCHIVE_BYTES = 16 * 1024 * 1024;

/** Whether `magic` (a file's first 4 bytes) opens a zip archive's first local header. */
function isZip(magic) {
  return magic[0] === 0x50 && magic[1] === 0x4b && magic[2] === 3 && magic[3] === 4;
}

/** The summary line of a lazily opened archive, for the page (`info.lazy`). */
function lazyInfo(entry) {
  const runs = runList(entry);
  const { file, open } = entry.lazy;
  return { fileBytes: file.size, bytesRead: bytesRead.get(file) ?? 0, pendingRuns: runs.filter((r) => r.pendingBody).length, openRun: open?.run ?? null };
}

/** The first position in sorted `a` whose value is >= `x`. */
function lowerBound(a, x) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Matching event indices, restricted to a run when one is given; null = every event. */
function matches(entry, query, run) {
  const { trace } = entry;
  const range = run === null || run === undefined ? null : runList(entry)[run];
  if (!query && !range) return null;
  if (!query) {
    const out = new Uint32Array(range.eventCount);
    for (let i = 0; i < out.length; i++) out[i] = range.firstEvent + i;
    return out;
  }
  const all = trace.filter(query);
  if (!range) return all;
  return all.slice(lowerBound(all, range.firstEvent), lowerBound(all, range.firstEvent + range.eventCount));
}

/**
 * The trace's diagnostics grouped as the core's `trace.diagnosticGroups()`
 * does, for a core without it: one group per (severity, code, message), in
 * order of first occurrence: { code, severity, message, count, events (how
 * many distinct events), diagnostics (indices in the trace's diagnostics
 * order), first }.
 */
function groupDiagnosticsInWorker(diagnostics) {
  const groups = [];
  const byKey = new Map();
  diagnostics.forEach((d, i) => {
    const key = `${d.severity}\u0000${d.code}\u0000${d.message}`;
    let group = byKey.get(key);
    if (!group) {
      group = { code: d.code, severity: d.severity, message: d.message, count: 0, events: 0, diagnostics: [], first: i, seen: new Set() };
      byKey.set(key, group);
      groups.push(group);
    }
    group.count++;
    group.diagnostics.push(i);
    if (d.event !== null && d.event !== undefined && !group.seen.has(d.event)) {
      group.seen.add(d.event);
      group.events++;
    }
  });
  return groups.map(({ seen, ...group }) => group);
}

/** The grouped diagnostics of a trace, computed once. */
function diagnosticGroupsOf(entry) {
  if (!entry.diagnosticGroups) {
    const { trace } = entry;
    entry.diagnosticGroups = typeof trace.diagnosticGroups === 'function' ? trace.diagnosticGroups() : groupDiagnosticsInWorker(trace.diagnostics());
  }
  return entry.diagnosticGroups;
}

/** The first `n` distinct events among diagnostics `indices` (looking at no more than 8n of them). */
function firstEvents(entry, indices, n) {
  const events = [];
  for (const i of indices.slice(0, 8 * n)) {
    const d = diagnosticAt(entry, i);
    if (d && d.event !== null && d.event !== undefined && !events.includes(d.event)) events.push(d.event);
    if (events.length === n) break;
  }
  return events;
}

/** Diagnostic `index` of the trace (in its diagnostics order). */
function diagnosticAt(entry, index) {
  return entry.trace.diagnosticsRange(index, 1)[0] ?? null;
}

/** Keeps a parsed trace and says what the page needs to show it. */
function describe(trace, name, parseMs, keepId = null, metadata = null) {
  const id = keepId ?? nextId++;
  const entry = keepId === null ? { trace, runs: null } : traces.get(keepId);
  traces.set(id, entry);
  return {
    traceId: id,
    name,
    format: trace.format,
    layout: trace.layout,
    fileCount: trace.fileCount,
    eventCount: trace.eventCount,
    runCount: trace.runCount,
    byteLength: trace.byteLength,
    diagnosticCount: trace.diagnosticCount,
    detection: trace.detection(),
    stats: trace.stats(),
    metadata: metadata ?? trace.metadata(),
    filterableFields: trace.filterableFields(),
    runs: runList(entry),
    hasTimestamps: trace.timestamps().some((t) => !Number.isNaN(t)),
    /** The views the format offers besides the event list ({ name, label, description }). */
    formatViews: trace.formatViews(),
    parseMs,
  };
}

const ops = {
  formats() {
    return formats();
  },
  /**
   * Which of the dropped files make one trace (`paths` as dropped, `heads`
   * the first bytes of the files `groupHeadsWanted` named): the core's
   * `groupFiles`, [{ name, files: indices into paths }], each format
   * deciding for its own files.
   */
  groupFiles({ paths, heads }) {
    return groupFiles(paths, heads ?? undefined);
  },
  /** Which of `paths` the core groups by their first bytes (indices). */
  groupHeadsWanted({ paths }) {
    return groupHeadsWanted(paths);
  },
  /**
   * Reads a File here, in Blob.slice chunks with progress, so that the page's
   * thread never touches the bytes; then parses it.
   */
  async parseFile({ file, name, format, lazyArchiveBytes = LAZY_ARCHIVE_BYTES }, progress) {
    if (file.size >= lazyArchiveBytes && file.size > 4) {
      if (isZip(await readSlice(file, 0, 4))) {
        progress({ phase: 'parsing', done: 0, total: file.size });
        const t0 = performance.now();
        const opened = await openArchive(file, format, { archiveTailNeeded, openArchiveLazily });
        if (opened) {
          const info = describe(opened.trace, name, performance.now() - t0);
          const entry = traces.get(info.traceId);
          entry.lazy = { file, name, metadata: info.metadata, archive: opened.archive, eager: opened.eager, open: null, queue: Promise.resolve() };
          return { ...info, lazy: lazyInfo(entry) };
        }
      }
    }
    const buffer = await readFile(file, (done, total) => progress({ phase: 'reading', done, total }));
    progress({ phase: 'parsing', done: buffer.byteLength, total: buffer.byteLength });
    return ops.parse({ buffer, name, format });
  },
  /**
   * Several files as one trace (a group of `groupFiles`: a conversation
   * folder, one event per file): read here, then joined by the core in the
   * format's file order.
   */
  async parseFiles({ files, name, format }, progress) {
    const total = files.reduce((n, f) => n + f.size, 0);
    let done = 0;
    const inputs = [];
    for (const file of files) {
      const buffer = await readFile(file, (d) => progress({ phase: 'reading', done: done + d, total }));
      done += buffer.byteLength;
      inputs.push({ name: file.name, bytes: new Uint8Array(buffer) });
    }
    progress({ phase: 'parsing', done: total, total });
    const t0 = performance.now();
    const trace = parseFiles(inputs, format ? { format } : {});
    return describe(trace, name, performance.now() - t0);
  },
  /**
   * Several files as one trace, read by the page (a folder of thousands of
   * run files: posting their File objects here cost the page a synchronous
   * round trip to the file store for each, 3 s for 10,000): `parts` are
   * `{ name, buffer }`, the buffers transferred.
   */
  parseBuffers({ parts, name, format }) {
    const t0 = performance.now();
    const trace = parseFiles(parts.map((p) => ({ name: p.name, bytes: new Uint8Array(p.buffer) })), format ? { format } : {});
    return describe(trace, name, performance.now() - t0);
  },
  /**
   * Parses bytes handed over whole (fetched from a URL, pasted, given to
   * `load()`). A large archive among them opens lazily as a dropped file
   * does: the bytes become a Blob read by ranges, and only the members shown
   * are inflated (a 500 MB `.eval` inflates to about 1.8 GB, past what one
   * trace may hold).
   */
  parse({ buffer, name, format, lazyArchiveBytes = LAZY_ARCHIVE_BYTES }, progress) {
    if (buffer.byteLength >= lazyArchiveBytes && isZip(new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength)))) {
      return ops.parseFile({ file: new Blob([buffer]), name, format, lazyArchiveBytes }, progress);
    }
    const t0 = performance.now();
    const trace = parseTrace(new Uint8Array(buffer), format ? { format } : {});
    return describe(trace, name, performance.now() - t0);
  },
  free({ traceId }) {
    const entry = traces.get(traceId);
    entry?.trace.free();
    entry?.lazy?.archive.free();
    traces.delete(traceId);
  },
  /**
   * Reads run `run`'s body from a lazily opened archive (its member, from
   * the File) and makes the trace again with it: the run then has its
   * events, exactly as the whole archive reads it; the run opened before
   * goes back to its summary (one body at a time besides those read at
   * open). Resolves to the new info (same traceId), or null when the run
   * has no pending body.
   */
  loadRun({ traceId, run }) {
    const entry = get(traceId);
    if (!entry.lazy) return null;
    const lazy = entry.lazy;
    const job = lazy.queue.then(async () => {
      const r = runList(entry)[run];
      if (!r?.pendingBody) return null;
      const t0 = performance.now();
      const member = lazy.archive.entryNamed(r.pendingBody);
      if (member < 0) throw new Error(`the archive holds no ${r.pendingBody}`);
      const body = await readBody(lazy.file, lazy.archive, member);
      const trace = lazy.archive.runsTrace([...lazy.eager, body]);
      entry.trace.free();
      Object.assign(entry, { trace, runs: null, diagnosticGroups: null, formatViews: null, agentRunText: null, searchPrepared: false });
      lazy.open = { run, entry: member };
      // The trace's metadata is the header's and the summaries': the same whichever run is open.
      const info = describe(trace, lazy.name, performance.now() - t0, traceId, lazy.metadata);
      return { ...info, lazy: lazyInfo(entry) };
    });
    lazy.queue = job.catch(() => {});
    return job;
  },
  /**
   * Free text (any event query) over every run of a lazily opened archive,
   * reading each body that is not in the trace from the File, one at a
   * time (never the whole archive inflated at once), with progress:
   * [{ run, matches }] for the runs with matches, and how many bodies were
   * read.
   */
  async searchBodies({ traceId, query }, progress) {
    const entry = get(traceId);
    if (!entry.lazy) throw new Error('not a lazily opened archive');
    const { archive, file } = entry.lazy;
    const runs = runList(entry).map((r) => ({ ...r }));
    const found = [];
    let read = 0;
    let bytes = 0;
    const inTrace = entry.trace.filter(query);
    for (const r of runs) {
      if (!r.pendingBody) {
        const n = lowerBound(inTrace, r.firstEvent + r.eventCount) - lowerBound(inTrace, r.firstEvent);
        if (n) found.push({ run: r.index, matches: n });
        continue;
      }
      const member = archive.entryNamed(r.pendingBody);
      if (member < 0) continue;
      const { bytes: raw } = await readBody(file, archive, member);
      const one = archive.bodyTrace(member, raw);
      try {
        const n = one.filter(query).length;
        if (n) found.push({ run: r.index, matches: n });
      } finally {
        one.free();
      }
      read++;
      bytes += raw.byteLength;
      if (read % 16 === 0) progress({ phase: 'searching', done: read, total: runs.length, bytes });
    }
    return { runs: found, bodiesRead: read, bytesRead: bytes };
  },
  rowsAt({ traceId, indices }) {
    return get(traceId).trace.rowsAt(indices);
  },
  event({ traceId, index }) {
    const { trace } = get(traceId);
    const [view] = trace.events(index, 1);
    if (!view) return null;
    return { view, raw: trace.rawJson(index) ?? '', diagnostics: trace.eventDiagnostics(index) };
  },
  filter({ traceId, query, run }) {
    const entry = get(traceId);
    const indices = matches(entry, query, run);
    const facets = indices ? entry.trace.facetsAt(indices) : entry.trace.facets();
    return { value: { indices, facets }, transfer: indices ? [indices.buffer] : [] };
  },
  filterRuns({ traceId, query }) {
    const indices = get(traceId).trace.filterRuns(query);
    return { value: indices, transfer: [indices.buffer] };
  },
  runs({ traceId }) {
    return runList(get(traceId));
  },
  /** One row per run: the runs table's columns (analysis::runs). */
  runRows({ traceId }) {
    return get(traceId).trace.runRows();
  },
  /** Every span as a bar on a time axis (analysis::span_bars), in columns. */
  spanBars({ traceId }) {
    return get(traceId).trace.spanBars();
  },
  /** Runs a and b aligned turn by turn (analysis::compare). */
  compareRuns({ traceId, a, b }) {
    return get(traceId).trace.compareRuns(a, b);
  },
  /** Run a of this trace and run b of trace `otherId` (another file) aligned turn by turn. */
  compareRunsWith({ traceId, otherId, a, b }) {
    return get(traceId).trace.compareRunsWith(get(otherId).trace, a, b);
  },
  /**
   * A trace file's bytes with its secrets masked (the core's `redact`):
   * { bytes, report, examples }, the bytes transferred back. The page
   * previews with the report and saves the bytes only when told to.
   */
  redact({ buffer, options }) {
    const r = redact(new Uint8Array(buffer), options);
    return { value: r, transfer: [r.bytes.buffer] };
  },
  /**
   * Run `run` alone as a file of the trace's format: its lines of a JSON
   * Lines file (the core's `trace.runSource`, which throws saying why a
   * file does not allow it), offered only once they read back as that run —
   * one run, the same events, each with the same kind, role and summary.
   */
  runSource({ traceId, run }) {
    const entry = get(traceId);
    const bytes = entry.trace.runSource(run);
    const r = runList(entry)[run];
    const check = parseTrace(bytes, { format: entry.trace.format });
    try {
      const rows = (t, from, n) => t.rowsAt(Uint32Array.from({ length: n }, (_, i) => from + i)).map((x) => `${x.kind}\u0000${x.role}\u0000${x.summary}`);
      const same = check.runCount === 1 && check.eventCount === r.eventCount && rows(check, 0, r.eventCount).join('\n') === rows(entry.trace, r.firstEvent, r.eventCount).join('\n');
      if (!same) throw new Error(`its lines do not read back as this run alone (they read as ${check.runCount} runs of ${check.eventCount} events)`);
    } finally {
      check.free();
    }
    return { value: bytes, transfer: [bytes.buffer] };
  },
  /** Each run's value of a metadata field (`metadata.a.b`), null where it has none. */
  runFieldValues({ traceId, name }) {
    return get(traceId).trace.runFieldValues(name);
  },
  filterableFields({ traceId }) {
    return get(traceId).trace.filterableFields();
  },
  /** How many diagnostics each group holds, groups in order of first occurrence (see diagnosticGroupsOf). */
  diagnosticGroups({ traceId }) {
    const counts = Uint32Array.from(diagnosticGroupsOf(get(traceId)), (g) => g.count);
    return { value: counts, transfer: [counts.buffer] };
  },
  /**
   * Lines of the grouped diagnostics list: for each `[group, member]`, the
   * group's summary (member -1: its code, severity, message, count,
   * eventCount, someEvents (the first few) and first diagnostic) or its
   * `member`-th diagnostic (with `index`, its place in the trace's
   * diagnostics).
   */
  diagnosticLines({ traceId, lines }) {
    const entry = get(traceId);
    const groups = diagnosticGroupsOf(entry);
    return lines.map(([g, member]) => {
      const group = groups[g];
      if (!group) return null;
      if (member < 0) {
        const { diagnostics, events, ...rest } = group;
        // `events`: how many distinct events (a list of them in the first sketch of the API).
        const eventCount = Array.isArray(events) ? events.length : events;
        return { group: g, ...rest, eventCount, someEvents: firstEvents(entry, diagnostics, 8), firstDiagnostic: diagnosticAt(entry, group.first) };
      }
      const index = group.diagnostics[member];
      return index === undefined ? null : { group: g, index, ...diagnosticAt(entry, index) };
    });
  },
  toolStats({ traceId }) {
    return get(traceId).trace.toolStats();
  },
  spans({ traceId }) {
    return get(traceId).trace.spans();
  },
  /**
   * The run's AgentRun text as Docent renders it. Only the first `maxChars`
   * characters of each piece cross to the page (a 100 MB run renders to a
   * string too long to show); `agentRunFullText` gives the whole of it for
   * copy and download. Token counts are cl100k_base's (tiktoken), from the
   * tokenizer module, loaded the first time a count or limit is asked for.
   */
  async agentRunText({ traceId, options, maxChars = 2_000_000 }) {
    const entry = get(traceId);
    const cut = (text) => ({ text: text.length > maxChars ? text.slice(0, maxChars) : text, length: text.length });
    if (options.tokenLimit) {
      const tokenizer = await loadTokenizer();
      const chunks = entry.trace.toAgentRunText(options, tokenizer);
      entry.agentRunText = { key: JSON.stringify(options), text: chunks };
      return { chunks: chunks.map((c) => ({ ...cut(c), tokens: tokenizer.count(c) })) };
    }
    const text = entry.trace.toAgentRunText(options);
    entry.agentRunText = { key: JSON.stringify(options), text };
    return cut(text);
  },
  async agentRunFullText({ traceId, options }) {
    const entry = get(traceId);
    const key = JSON.stringify(options);
    if (entry.agentRunText?.key === key) return entry.agentRunText.text;
    return options.tokenLimit ? entry.trace.toAgentRunText(options, await loadTokenizer()) : entry.trace.toAgentRunText(options);
  },
  async agentRunTokenCount({ traceId, options }) {
    const entry = get(traceId);
    const tokenizer = await loadTokenizer();
    const key = JSON.stringify(options);
    const text = entry.agentRunText?.key === key && typeof entry.agentRunText.text === 'string' ? entry.agentRunText.text : entry.trace.toAgentRunText(options);
    return tokenizer.count(text);
  },
  /**
   * View `name` of run `run`, one the trace's format declares
   * (`formatViews` of the parse result): its header (title, notes, notices,
   * error, item count) without `start`, else items `start`..`start+count`
   * with the row of each item's event attached (as the event list shows
   * it). The view is computed once per (name, run) and kept.
   */
  formatView({ traceId, name, run, start, count }) {
    const entry = get(traceId);
    entry.formatViews ??= new Map();
    const key = `${run}\u0000${name}`;
    let view = entry.formatViews.get(key);
    if (!view) {
      view = entry.trace.formatView(name, run);
      entry.formatViews.set(key, view);
    }
    if (start === undefined) {
      const { title, label, notes, notices, error } = view;
      return { name, label, title, notes, notices, error: error ?? null, count: view.items.length };
    }
    const page = view.items.slice(start, start + (count ?? view.items.length));
    const indices = Uint32Array.from(page.filter((item) => item.event !== null && item.event !== undefined).map((item) => item.event));
    const rows = new Map(entry.trace.rowsAt(indices).map((r) => [r.index, r]));
    return page.map((item) => ({ ...item, row: item.event === null || item.event === undefined ? null : rows.get(item.event) ?? null }));
  },
  /**
   * Items `start`..`start+count` of the transcript of run `run` (null: the
   * whole trace), as views/transcript/page-data.js builds them: each
   * event's content as blocks with markdown parsed here, its calls' results
   * attached.
   */
  async transcriptPage({ traceId, run, start, count }) {
    const entry = get(traceId);
    const [from, to] = transcriptRange(entry, run);
    return transcriptPage(entry.trace, { start: from + start, count, from, to }, runList(entry), await loadMarkdown());
  },
  /** The transcript position showing event `index` (its call's, for a result shown under it), or null outside the range. */
  transcriptLocate({ traceId, run, index }) {
    const entry = get(traceId);
    const [from, to] = transcriptRange(entry, run);
    if (index < from || index >= to) return null;
    const at = transcriptLocate(entry.trace, { index, from, to });
    return at && { position: at.item - from, nested: at.nested };
  },
  /**
   * The transcript positions holding `text` (case-insensitive, the core's
   * phrase search over content, reasoning, arguments and results), in
   * order, a result shown under its call counted at the call; at most
   * `limit`, and how many events matched in all.
   */
  transcriptSearch({ traceId, run, text, limit = 10_000 }) {
    const entry = get(traceId);
    const [from, to] = transcriptRange(entry, run);
    const all = entry.trace.filter(JSON.stringify(text));
    const hits = all.slice(lowerBound(all, from), lowerBound(all, to));
    const rows = entry.trace.rowsAt(hits.slice(0, limit));
    const callers = Uint32Array.from(new Set(rows.filter((r) => r.kind === 'tool-result' && r.callEvent >= from && r.callEvent < to).map((r) => r.callEvent)));
    const results = new Map(entry.trace.rowsAt(callers).map((r) => [r.index, r.results ?? []]));
    const positions = new Set();
    for (const r of rows) {
      const shownUnder = r.kind === 'tool-result' && results.get(r.callEvent)?.includes(r.index) && r.callEvent !== r.index;
      positions.add((shownUnder ? r.callEvent : r.index) - from);
    }
    return { positions: [...positions].sort((a, b) => a - b), matched: hits.length };
  },
  /** Token usage, reported cost (USD, absent when none) and event count of run `run` (a sub-agent's, shown where it was started): the core's `trace.usage(run)`. */
  runUsage({ traceId, run }) {
    const entry = get(traceId);
    const r = runList(entry)[run];
    if (!r) return null;
    const usage = entry.trace.usage(run);
    return { eventCount: r.eventCount, tokens: usage.total.totalTokens, cost: usage.cost?.total.total, name: r.name, id: r.id };
  },
  timestamps({ traceId }) {
    const ts = get(traceId).trace.timestamps();
    return { value: ts, transfer: [ts.buffer] };
  },
};

/** The events a transcript of run `run` shows: [first, end). */
function transcriptRange(entry, run) {
  const r = run === null || run === undefined ? null : runList(entry)[run];
  return r ? [r.firstEvent, r.firstEvent + r.eventCount] : [0, entry.trace.eventCount];
}

/**
 * After a load, once the page has stopped asking for a moment (its first
 * rows are in), builds each trace's search index (`prepareSearch`): until
 * then free text is searched in place in the source (no wait for the first
 * filter), from then on in the index, several times faster. Traces over
 * 256 MB keep searching in place: the index is about as big as their text,
 * and wasm memory stops at 4 GB.
 */
const IDLE_MS = 400;
const PREPARE_MAX_BYTES = 256 * 1024 * 1024;
let idleTimer = null;
/** Requests in flight (a file read awaits): no idle work while any is. */
let busy = 0;
function whenIdle() {
  clearTimeout(idleTimer);
  if (busy > 0) return;
  idleTimer = setTimeout(() => {
    const entry = [...traces.values()].find((e) => !e.searchPrepared);
    if (!entry) return;
    entry.searchPrepared = true;
    if (entry.trace.byteLength <= PREPARE_MAX_BYTES) entry.trace.prepareSearch();
    whenIdle();
  }, IDLE_MS);
}

self.onmessage = async ({ data }) => {
  const { id, op, args } = data;
  busy++;
  clearTimeout(idleTimer);
  try {
    await ready;
    const fn = ops[op];
    if (!fn) throw new Error(`unknown operation ${op}`);
    const result = await fn(args ?? {}, (progress) => self.postMessage({ id, progress }));
    const wrapped = result && typeof result === 'object' && 'transfer' in result && 'value' in result;
    self.postMessage({ id, ok: true, value: wrapped ? result.value : result }, wrapped ? result.transfer : []);
  } catch (e) {
    self.postMessage({ id, ok: false, error: { message: e?.message ?? String(e), column: e?.column, name: e?.name } });
  } finally {
    busy--;
    whenIdle();
  }
};

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, error: { message: `the parser failed to start: ${e.message}` } }),
);
