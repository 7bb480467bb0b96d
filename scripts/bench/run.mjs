#!/usr/bin/env node
// The benchmark runner: generates the synthetic traces (scripts/bench/gen.mjs),
// measures the wasm package in Node against JSON.parse in the same process,
// the native core against serde_json (benches/parse.rs), and the viewer in
// headless Chromium (scripts/bench/browser.mjs); prints medians, ratios and
// the targets of the performance issue, and with --write rewrites
// BENCHMARKS.md.
//
//   node scripts/bench/run.mjs [--sizes 1MB,10MB,100MB] [--formats openai,docent,…]
//        [--runs N] [--no-native] [--no-browser] [--gb] [--write] [--json FILE]
//
// Each file is measured in a fresh child process (wasm memory only grows, so
// its size after the parses is that file's peak) that runs, interleaved,
// N × (TextDecoder, JSON.parse, parseTrace), then the filters and the
// AgentRun text rendering on the last trace. Wall times vary with the
// machine's load: medians over N runs, and every figure next to its baseline
// from the same process and moment.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import { FORMATS, ensure, parseSize, sizeName } from './gen.mjs';
import { measureAgentRunVsDocent } from './agentrun-docent.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = process.env.ATV_BENCH_DATA ?? join(root, 'target', 'bench-data');

// ---------------------------------------------------------------- helpers

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function time(f) {
  const t = performance.now();
  const v = f();
  return [performance.now() - t, v];
}

function gc() {
  globalThis.gc?.();
}

const fmtMs = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x >= 100 ? `${x.toFixed(0)} ms` : x >= 10 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`);
const fmtRatio = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(2));
const fmtMB = (b) => (b === null || b === undefined ? '—' : `${(b / 1e6).toFixed(1)} MB`);

// ---------------------------------------------------------------- child: one file in one process

/** Loads the Node build of the package and keeps a handle on its wasm memory. */
function loadPackage() {
  const require = createRequire(import.meta.url);
  const Instance = WebAssembly.Instance;
  let instance;
  WebAssembly.Instance = function (module, imports) {
    instance = new Instance(module, imports);
    return instance;
  };
  try {
    const pkg = require(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
    return { pkg, memory: () => instance.exports.memory.buffer.byteLength };
  } finally {
    WebAssembly.Instance = Instance;
  }
}

/**
 * The queries measured: the field filter; free text cold (a fresh trace's first query, and its
 * second, both before any index) and warm (after `prepareSearch`, as in the viewer); a regex with
 * a literal and one without (warm: after the first builds the text buffer).
 */
const QUERIES = [
  { name: 'field role:tool', kind: 'field', q: 'role:tool' },
  { name: 'field kind:tool-result', kind: 'field', q: 'kind:tool-result' },
  { name: 'field role:tool (first)', kind: 'field-first', q: 'role:tool', cold: true },
  { name: 'text traceback (first)', kind: 'text-first', q: 'traceback', cold: true },
  { name: 'text traceback (second, in place)', kind: 'text-second', q: 'traceback', cold: true, second: true },
  { name: 'text traceback', kind: 'text', q: 'traceback' },
  { name: 'text "connection refused"', kind: 'text', q: '"connection refused"' },
  { name: 'text zürich', kind: 'text', q: 'zürich' },
  { name: 'regex /line \\d+, in/', kind: 'regex', q: '/line \\d+, in/', regex: true },
  { name: 'regex /\\d{3}-\\d{4}/', kind: 'regex-no-literal', q: '/\\d{3}-\\d{4}/', regex: true },
];

function child(file, runs) {
  const { pkg, memory } = loadPackage();
  const bytes = new Uint8Array(readFileSync(file));
  const layout = file.endsWith('.jsonl') ? 'jsonl' : 'json';
  const out = { file: basename(file), bytes: bytes.length, layout };

  // Warm-up parse: JIT, and the wasm memory grows to what this file needs.
  let trace = pkg.parseTrace(bytes);
  const stats = trace.stats();
  Object.assign(out, { format: trace.format, events: trace.eventCount, runs: trace.runCount, errors: stats.errors, warnings: stats.warnings });
  trace.free();
  trace = null;
  gc();

  const decode = [], jsonParse = [], parse = [];
  for (let i = 0; i < runs; i++) {
    gc();
    const [td, text] = time(() => new TextDecoder().decode(bytes));
    decode.push(td);
    gc();
    const [tj] = time(() => {
      if (layout === 'json') return JSON.parse(text);
      const values = [];
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        if (end > start) values.push(JSON.parse(text.slice(start, end)));
        start = end + 1;
      }
      return values;
    });
    jsonParse.push(tj);
    gc();
    if (trace) trace.free();
    const [tp, t] = time(() => pkg.parseTrace(bytes));
    parse.push(tp);
    trace = t;
  }
  out.decodeMs = median(decode);
  out.jsonParseMs = median(jsonParse);
  out.parseMs = median(parse);
  out.parseRuns = parse;
  out.wasmMemory = memory();
  out.maxRss = process.resourceUsage().maxRSS * 1024;

  out.filters = [];
  const regexSupported = (() => {
    try {
      trace.filter('/(/');
      return false;
    } catch {
      return true;
    }
  })();
  for (const q of QUERIES) {
    if (q.regex && !regexSupported) {
      out.filters.push({ ...q, ms: null, note: 'no regex in this query language' });
      continue;
    }
    if (q.cold) {
      // Cold: a fresh trace, so the first free-text query pays for any index it builds.
      trace.free();
      gc();
      trace = pkg.parseTrace(bytes);
      // Second: a query after the first, before any index is built (in place).
      if (q.second) trace.filter(q.q);
      const [ms, hits] = time(() => trace.filter(q.q).length);
      out.filters.push({ ...q, ms, hits });
      continue;
    }
    // Later text queries: after the index the viewer's worker builds while idle
    // (`prepareSearch`); until then free text is searched in place (the rows above).
    if (q.kind === 'text' && trace.prepareSearch) trace.prepareSearch();
    trace.filter(q.q);
    const times = [];
    let hits = 0;
    for (let i = 0; i < Math.max(3, runs); i++) {
      const [ms, n] = time(() => trace.filter(q.q).length);
      times.push(ms);
      hits = n;
    }
    out.filters.push({ ...q, ms: median(times), hits });
  }

  // The AgentRun text (Docent's current rendering, default context) of every run, and
  // of the run with the most events alone; the legacy rendering of that run too.
  const runsInfo = trace.runs();
  let largest = 0;
  runsInfo.forEach((r, i) => {
    if (r.eventCount > runsInfo[largest].eventCount) largest = i;
  });
  const [allMs, chars] = time(() => runsInfo.reduce((n, _, i) => n + trace.toAgentRunText({ run: i }).length, 0));
  const [oneMs] = time(() => trace.toAgentRunText({ run: largest }));
  const [legacyMs] = time(() => trace.toAgentRunText({ run: largest, style: 'legacy' }));
  out.render = { allRunsMs: allMs, largestRunMs: oneMs, largestRunLegacyMs: legacyMs, largestRunEvents: runsInfo[largest].eventCount, chars };
  out.wasmMemoryAfterQueries = memory();
  trace.free();
  process.stdout.write(JSON.stringify(out) + '\n');
}

// ---------------------------------------------------------------- parent

function parseArgs(argv) {
  const args = { sizes: '1MB,10MB,100MB', formats: Object.keys(FORMATS).join(','), runs: null, native: true, browser: true, gb: false, write: false, corpus: true, docent: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--sizes': args.sizes = argv[++i]; break;
      case '--formats': args.formats = argv[++i]; break;
      case '--runs': args.runs = Number(argv[++i]); break;
      case '--no-native': args.native = false; break;
      case '--no-browser': args.browser = false; break;
      case '--no-corpus': args.corpus = false; break;
      case '--no-docent': args.docent = false; break;
      case '--gb': args.gb = true; break;
      case '--write': args.write = true; break;
      case '--json': args.json = argv[++i]; break;
      case '--child': args.child = argv[++i]; break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  return args;
}

function runsFor(bytes, asked) {
  if (asked) return asked;
  return bytes >= 500e6 ? 1 : bytes >= 50e6 ? 5 : bytes >= 5e6 ? 7 : 9;
}

function measureNode(file, runs) {
  const heap = statSync(file).size > 300e6 ? ['--max-old-space-size=12288'] : [];
  const r = spawnSync(process.execPath, ['--expose-gc', ...heap, fileURLToPath(import.meta.url), '--child', file, '--runs', String(runs)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) {
    return { file: basename(file), error: (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ') };
  }
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function measureNative(files, runs) {
  const r = spawnSync('cargo', ['bench', '--quiet', '--bench', 'parse', '--', '--json', '--runs', String(runs), ...files], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env },
  });
  if (r.status !== 0) throw new Error(`cargo bench failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

function measureBrowser(files) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'bench', 'browser.mjs'), '--json', ...files], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) return files.map((f) => ({ file: basename(f), error: (r.stderr || '').trim().split('\n').slice(-3).join(' ') }));
  return r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

/** A folder of 10,000 run files, 100 MB, opened in Chromium (scripts/bench/folder.mjs). */
function measureFolder() {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'bench', 'folder.mjs'), '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = r.stdout.trim().split('\n').find((l) => l.startsWith('{'));
  return r.status === 0 && line ? JSON.parse(line) : { error: (r.stderr || '').trim().split('\n').slice(-3).join(' ') };
}

/** A dense trace made of a real corpus file (short events: ~3 events per KB), repeated to `size`. */
function corpusFile(size) {
  const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');
  const src = join(corpus, 'invariant', 'invariantlabs-ai__invariant__invariant__agent-datasets__agent_instruct_kg.json');
  if (!existsSync(src)) return null;
  const out = join(dataDir, `corpus-kg-${sizeName(size)}.jsonl`);
  if (!existsSync(out)) {
    const one = readFileSync(src);
    const copies = Math.max(1, Math.round(size / one.length));
    writeFileSync(out, Buffer.concat(Array(copies).fill(one)));
  }
  return out;
}

function machine() {
  const cpus = os.cpus();
  const version = (cmd, args) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim().split('\n')[0] : 'unavailable';
  };
  const commit = version('git', ['-C', root, 'rev-parse', '--short', 'HEAD']);
  const wasm = join(root, 'pkg', 'web', 'agent_trace_viewer_bg.wasm');
  const wasmBytes = existsSync(wasm) ? readFileSync(wasm) : null;
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} (${cpus.length} logical cores)`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    rustc: version('rustc', ['--version']),
    chromium: version(process.env.CHROMIUM ?? '/usr/bin/chromium', ['--version']),
    load: os.loadavg().map((x) => x.toFixed(2)).join(' '),
    commit,
    date: new Date().toISOString().slice(0, 10),
    wasmSize: wasmBytes ? wasmBytes.length : null,
    wasmGzip: wasmBytes ? gzipSync(wasmBytes, { level: 9 }).length : null,
  };
}

// ---------------------------------------------------------------- report

const TARGETS = [
  { key: 'parseRatio', what: 'parseTrace / JSON.parse time', target: '≤ 0.5', ok: (x) => x <= 0.5, fmt: fmtRatio },
  { key: 'nativeRatio', what: 'native core / serde_json::Value tree time', target: '≤ 1.0', ok: (x) => x <= 1.0, fmt: fmtRatio },
  { key: 'nativeFloor', what: 'native core / IgnoredAny (the floor; reported)', target: '—', ok: () => null, fmt: fmtRatio },
  { key: 'fieldMs', what: 'field filter over all events', target: '≤ 5 ms', ok: (x) => x <= 5, fmt: fmtMs },
  { key: 'fieldFirstMs', what: 'field filter, first query (builds its id arrays)', target: '≤ 5 ms', ok: (x) => x <= 5, fmt: fmtMs },
  { key: 'textMs', what: 'free-text filter over all events', target: '≤ 50 ms', ok: (x) => x <= 50, fmt: fmtMs },
  { key: 'textFirstMs', what: 'free-text filter, first query (no index built yet)', target: '≤ 50 ms', ok: (x) => x <= 50, fmt: fmtMs },
  { key: 'regexNoLiteralMs', what: 'regex without a required literal (/\\d{3}-\\d{4}/)', target: '≤ 100 ms', ok: (x) => x <= 100, fmt: fmtMs },
  { key: 'renderMs', what: 'AgentRun text, whole run', target: '≤ 1 s', ok: (x) => x <= 1000, fmt: fmtMs },
  { key: 'docentFirstMs', what: 'AgentRun text of one 100 MB run, first call', target: '≤ 400 ms', ok: (x) => x <= 400, fmt: fmtMs },
  { key: 'docentRatio', what: 'the same / Docent 0.1.88 on that run', target: '≤ 0.10', ok: (x) => x <= 0.1, fmt: fmtRatio },
  { key: 'memoryRatio', what: 'peak wasm memory / file size', target: '≤ 2.0', ok: (x) => x <= 2.0, fmt: fmtRatio },
  { key: 'firstRowsMs', what: 'Chromium: drop to first rows', target: '≤ 2 s', ok: (x) => x <= 2000, fmt: fmtMs },
  { key: 'longTaskMs', what: 'Chromium: longest main-thread task', target: '≤ 100 ms', ok: (x) => x <= 100, fmt: fmtMs },
  { key: 'folderTableMs', what: 'Chromium: a folder of 10,000 run files, runs table', target: '≤ 3 s', ok: (x) => x <= 3000, fmt: fmtMs },
  { key: 'folderLongTaskMs', what: 'the same: the page\'s longest main-thread task', target: '≤ 100 ms', ok: (x) => x <= 100, fmt: fmtMs },
  { key: 'gbLoads', what: 'Chromium: a 1 GB trace', target: 'loads and scrolls', ok: (x) => x === true, fmt: (x) => (x === true ? 'loads and scrolls' : x === false ? 'fails' : x ?? 'not run (--gb)') },
  { key: 'wasmGzip', what: '.wasm size, gzipped', target: '≤ 400 KB', ok: (x) => x <= 400e3, fmt: (x) => (x ? `${(x / 1e3).toFixed(0)} KB` : '—') },
];

function summarize(results, mach) {
  const node = results.node.find((r) => r.format === 'openai' && r.layout === 'json' && r.bytes >= 90e6 && r.bytes < 200e6) ?? null;
  const nodeL = results.node.find((r) => r.format === 'openai' && r.layout === 'jsonl' && r.bytes >= 90e6 && r.bytes < 200e6) ?? null;
  const nativeOf = (r) => results.native.find((n) => basename(n.file) === r?.file) ?? null;
  const native = nativeOf(node);
  const nativeL = nativeOf(nodeL);
  const f = (r, kind, name) => r?.filters?.find((q) => (name ? q.name === name : q.kind === kind))?.ms ?? null;
  const browser = results.browser.find((r) => r.file === node?.file && !r.error) ?? null;
  const gb = results.browser.find((r) => r.bytes >= 900e6);
  const pick = (r) => ({
    parseRatio: r ? r.parseMs / r.jsonParseMs : null,
    fieldMs: r ? Math.max(f(r, 'field', 'field role:tool'), f(r, 'field', 'field kind:tool-result')) : null,
    textMs: r ? Math.max(...r.filters.filter((q) => q.kind === 'text').map((q) => q.ms)) : null,
    textFirstMs: f(r, 'text-first'),
    regexNoLiteralMs: f(r, 'regex-no-literal'),
    fieldFirstMs: f(r, 'field-first'),
    renderMs: r?.render?.largestRunMs ?? null,
    memoryRatio: r ? r.wasmMemory / r.bytes : null,
  });
  return {
    json: {
      ...pick(node),
      nativeRatio: native ? native.coreMs / native.valueMs : null,
      nativeFloor: native ? native.coreMs / native.ignoredAnyMs : null,
      firstRowsMs: browser?.firstRowsMs ?? null,
      longTaskMs: browser?.longestTaskMs ?? null,
      folderTableMs: results.folder?.tableMs ?? null,
      folderLongTaskMs: results.folder?.tableMs ? results.folder.longestTaskMs : null,
      gbLoads: gb ? gb.loadsAndScrolls === true : null,
      wasmGzip: mach.wasmGzip,
      docentFirstMs: results.docent?.sameText ? results.docent.firstMs : null,
      docentRatio: results.docent?.sameText ? results.docent.firstMs / results.docent.docentMs : null,
    },
    jsonl: {
      ...pick(nodeL),
      nativeRatio: nativeL ? nativeL.coreMs / nativeL.valueMs : null,
      nativeFloor: nativeL ? nativeL.coreMs / nativeL.ignoredAnyMs : null,
    },
  };
}

function markdown(results, mach, command) {
  const s = summarize(results, mach);
  const L = [];
  L.push('<!-- generated by scripts/bench/run.mjs --write; edit the text outside the generated block -->');
  L.push('<!-- bench:begin -->');
  L.push(`Measured ${mach.date} at commit \`${mach.commit}\` with \`${command}\`.`);
  L.push('');
  L.push(`Machine: ${mach.cpu}, ${mach.memory} RAM, ${mach.os}; Node ${mach.node}; ${mach.rustc}; ${mach.chromium}. Load average at the start: ${mach.load} (a shared machine: figures are medians, each next to its baseline from the same process).`);
  L.push('');
  L.push('### Targets (100 MB OpenAI-format trace, wasm in Node unless said)');
  L.push('');
  L.push('| what | target | JSON document | JSON Lines | met |');
  L.push('|---|---|---|---|---|');
  for (const t of TARGETS) {
    const a = s.json[t.key];
    const b = s.jsonl[t.key];
    const shown = (x) => (x === undefined ? '' : t.fmt(x));
    const oks = [a, b].filter((x) => x !== null && x !== undefined).map((x) => t.ok(x));
    const met = oks.length === 0 || oks.includes(null) ? '—' : oks.every(Boolean) ? 'yes' : oks.some(Boolean) ? 'partly' : '**no**';
    L.push(`| ${t.what} | ${t.target} | ${shown(a)} | ${shown(b)} | ${met} |`);
  }
  L.push('');
  L.push('### Wasm in Node: parseTrace against JSON.parse in the same process');
  L.push('');
  L.push('`decode` is `TextDecoder` on the bytes (what JSON.parse needs first; not counted in JSON.parse). JSON Lines are parsed line by line. Memory: the wasm memory after the parses (it only grows, so this is its peak) and the peak RSS of the process.');
  L.push('');
  L.push('| file | events | decode | JSON.parse | parseTrace | ratio | wasm memory | ×file | peak RSS | errors |');
  L.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results.node) {
    if (r.error) {
      L.push(`| ${r.file} | error: ${r.error} |||||||||`);
      continue;
    }
    L.push(`| ${r.file} | ${r.events} | ${fmtMs(r.decodeMs)} | ${fmtMs(r.jsonParseMs)} | ${fmtMs(r.parseMs)} | ${fmtRatio(r.parseMs / r.jsonParseMs)} | ${fmtMB(r.wasmMemory)} | ${fmtRatio(r.wasmMemory / r.bytes)} | ${fmtMB(r.maxRss)} | ${r.errors} |`);
  }
  L.push('');
  L.push('### Filters and AgentRun text (wasm in Node)');
  L.push('');
  const names = QUERIES.map((q) => q.name);
  L.push(`| file | events | ${names.join(' | ')} | AgentRun text (current): largest run | legacy, largest run | current, all runs |`);
  L.push(`|---|---|${names.map(() => '---').join('|')}|---|---|---|`);
  for (const r of results.node) {
    if (r.error) continue;
    const cells = names.map((n) => {
      const q = r.filters.find((x) => x.name === n);
      return q?.ms === null || q?.ms === undefined ? (q?.note ? 'n/a' : '—') : `${fmtMs(q.ms)} (${q.hits})`;
    });
    const render = [`${fmtMs(r.render.largestRunMs)} (${r.render.largestRunEvents} events)`, fmtMs(r.render.largestRunLegacyMs), fmtMs(r.render.allRunsMs)];
    L.push(`| ${r.file} | ${r.events} | ${cells.join(' | ')} | ${render.join(' | ')} |`);
  }
  if (results.native.length) {
    L.push('');
    L.push('### Native core against serde_json (`cargo bench --bench parse`)');
    L.push('');
    L.push('| file | serde_json Value | IgnoredAny | core | core / Value | core / IgnoredAny | core phases |');
    L.push('|---|---|---|---|---|---|---|');
    for (const r of results.native) {
      const phases = Object.entries(r.phases).filter(([, t]) => t >= 0.05).map(([p, t]) => `${p} ${t.toFixed(1)}`).join(', ');
      L.push(`| ${basename(r.file)} | ${fmtMs(r.valueMs)} | ${fmtMs(r.ignoredAnyMs)} | ${fmtMs(r.coreMs)} | ${fmtRatio(r.coreMs / r.valueMs)} | ${fmtRatio(r.coreMs / r.ignoredAnyMs)} | ${phases} |`);
    }
  }
  if (results.browser.length) {
    L.push('');
    L.push('### Chromium (headless, the viewer page, file input)');
    L.push('');
    L.push('| file | to first rows | longest main-thread task | long tasks (>50 ms) | scrolls |');
    L.push('|---|---|---|---|---|');
    for (const r of results.browser) {
      if (r.error) L.push(`| ${r.file} | error: ${r.error} ||||`);
      else L.push(`| ${r.file} | ${fmtMs(r.firstRowsMs)} | ${fmtMs(r.longestTaskMs)} | ${r.longTasks} | ${r.loadsAndScrolls === undefined ? '—' : r.loadsAndScrolls ? 'yes' : 'no'} |`);
    }
    const f = results.folder;
    if (f) {
      L.push('');
      L.push(f.error
        ? `A folder of 10,000 run files (\`scripts/bench/folder.mjs\`): error: ${f.error}`
        : `A folder of ${f.files.toLocaleString('en-US')} run files, 100 MB (\`scripts/bench/folder.mjs\`, the folder input, median of ${f.samples}): runs table filled ${fmtMs(f.tableMs)} after \`change\` (files read by ${fmtMs(f.readMs)}); the page's longest main-thread task ${fmtMs(f.longestTaskMs)}, ${f.longTasks} of 50 ms or more; before \`change\`, the browser's own task building the FileList: ${fmtMs(f.fileListTaskMs)}.`);
    }
  }
  const d = results.docent;
  if (d) {
    L.push('');
    L.push('### AgentRun text against Docent (one run, current style)');
    L.push('');
    L.push("Ours: `toAgentRunText({ style: 'current' })` in a fresh Node process (the first call includes growing wasm memory) and again; Docent: docent 0.1.88 `AgentRunView.from_agent_run(run).to_text()` from its pinned venv, on the run as `toAgentRun` maps it. Same text: the two texts' SHA-256 agree.");
    L.push('');
    L.push('| file | messages | ours, first call | ours, second call | Docent | first / Docent | same text |');
    L.push('|---|---|---|---|---|---|---|');
    L.push(d.error ? `| ${basename(d.file)} | ERROR ${d.error} ||||||` : `| ${basename(d.file)} | ${d.messages} | ${fmtMs(d.firstMs)} | ${fmtMs(d.secondMs)} | ${fmtMs(d.docentMs)} | ${fmtRatio(d.firstMs / d.docentMs)} | ${d.sameText ? 'yes' : '**no**'} |`);
  }
  L.push('');
  L.push(`.wasm: ${mach.wasmSize ?? '—'} bytes, ${mach.wasmGzip ?? '—'} gzipped (zlib at level 9, in Node; GNU \`gzip -9\` gives a few KB less).`);
  L.push('<!-- bench:end -->');
  return L.join('\n');
}

function printSummary(results, mach) {
  const s = summarize(results, mach);
  console.log('\nTargets (100 MB openai; document / JSON Lines):');
  for (const t of TARGETS) {
    const a = s.json[t.key];
    const b = s.jsonl[t.key];
    console.log(`  ${t.what.padEnd(52)} ${t.target.padEnd(18)} ${a === undefined ? '' : t.fmt(a)}${b === undefined ? '' : ` / ${t.fmt(b)}`}`);
  }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child) return child(args.child, args.runs ?? 5);
  const command = `node scripts/bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim();
  if (!existsSync(join(root, 'pkg', 'node', 'agent_trace_viewer.js'))) throw new Error('pkg/node missing: run scripts/build.sh (or bash scripts/bench.sh)');
  const mach = machine();
  const sizes = args.sizes.split(',').map(parseSize);
  const files = [];
  for (const format of args.formats.split(',')) {
    const layouts = format === 'openai' ? FORMATS[format].layouts : FORMATS[format].layouts.slice(0, 1);
    for (const size of sizes) for (const layout of layouts) files.push(ensure(dataDir, format, layout, size));
  }
  if (args.corpus) for (const size of sizes.filter((s) => s >= 10e6)) files.push(corpusFile(size));
  const nodeFiles = files.filter(Boolean);
  const results = { node: [], native: [], browser: [] };
  for (const file of nodeFiles) {
    const bytes = statSync(file).size;
    const r = measureNode(file, runsFor(bytes, args.runs));
    results.node.push(r);
    console.log(r.error ? `${r.file}: ERROR ${r.error}` : `${r.file}: ${r.events} events, decode ${fmtMs(r.decodeMs)}, JSON.parse ${fmtMs(r.jsonParseMs)}, parseTrace ${fmtMs(r.parseMs)} (×${fmtRatio(r.parseMs / r.jsonParseMs)}), wasm ${fmtMB(r.wasmMemory)} (×${fmtRatio(r.wasmMemory / r.bytes)}), ${r.filters.map((q) => `${q.name} ${fmtMs(q.ms)}`).join(', ')}${r.render ? `, render ${fmtMs(r.render.largestRunMs)}` : ''}`);
  }
  if (args.native) {
    const big = nodeFiles.filter((f) => statSync(f).size < 500e6);
    for (const f of big) {
      const [r] = measureNative([f], runsFor(statSync(f).size, args.runs));
      results.native.push(r);
      console.log(`native ${basename(r.file)}: Value ${fmtMs(r.valueMs)}, IgnoredAny ${fmtMs(r.ignoredAnyMs)}, core ${fmtMs(r.coreMs)} (×${fmtRatio(r.coreMs / r.valueMs)} Value, ×${fmtRatio(r.coreMs / r.ignoredAnyMs)} floor)`);
    }
  }
  if (args.browser) {
    const openai = nodeFiles.filter((f) => basename(f).startsWith('openai-') && statSync(f).size >= 90e6);
    if (args.gb) openai.push(ensure(dataDir, 'openai', 'json', 1e9));
    if (openai.length) {
      results.browser = measureBrowser(openai);
      for (const r of results.browser) console.log(r.error ? `chromium ${r.file}: ERROR ${r.error}` : `chromium ${r.file}: first rows ${fmtMs(r.firstRowsMs)}, longest task ${fmtMs(r.longestTaskMs)}`);
    }
    results.folder = measureFolder();
    const f = results.folder;
    console.log(f.error ? `chromium folder: ERROR ${f.error}` : `chromium folder of ${f.files} run files: runs table ${fmtMs(f.tableMs)} (read ${fmtMs(f.readMs)}), longest task of the page ${fmtMs(f.longestTaskMs)} (the browser's FileList before it: ${fmtMs(f.fileListTaskMs)})`);
  }
  if (args.docent && args.formats.split(',').includes('openai')) {
    const size = Math.max(...sizes);
    results.docent = measureAgentRunVsDocent(dataDir, size);
    const d = results.docent;
    console.log(d.error ? `agentrun vs docent: ERROR ${d.error}` : `agentrun text, one ${sizeName(size)} run: first ${fmtMs(d.firstMs)}, second ${fmtMs(d.secondMs)}, docent ${fmtMs(d.docentMs)} (×${fmtRatio(d.firstMs / d.docentMs)}), same text: ${d.sameText}`);
  }
  printSummary(results, mach);
  if (args.json) writeFileSync(args.json, JSON.stringify({ machine: mach, command, results }, null, 1));
  if (args.write) {
    const path = join(root, 'BENCHMARKS.md');
    const block = markdown(results, mach, command);
    const old = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n\n';
    const re = /<!-- generated by[^\n]*\n<!-- bench:begin -->[\s\S]*<!-- bench:end -->/;
    writeFileSync(path, re.test(old) ? old.replace(re, block) : `${old.trimEnd()}\n\n## Latest run\n\n${block}\n`);
    console.log(`\nwrote ${path}`);
  }
}

main();
