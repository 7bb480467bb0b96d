#!/usr/bin/env node
// Deterministic generator of synthetic agent traces for the benchmarks.
//
//   node scripts/bench/gen.mjs --format openai --size 100MB [--layout json|jsonl] [--seed 1] [--out FILE]
//   node scripts/bench/gen.mjs --all --sizes 1MB,10MB,100MB --dir target/bench-data
//   node scripts/bench/gen.mjs --format openai --size 100MB --files 10000 [--out DIR]
//
// The same (format, layout, size, seed) always gives the same bytes: the
// random source is a seeded PRNG and nothing reads the clock. Traces are
// shaped like real ones: long tool outputs (logs, listings, tracebacks,
// pretty JSON, web text), unicode (accents, CJK, emoji, and on some runs
// `\uXXXX` escapes as Python's json.dumps writes them), nested tool
// arguments (some as JSON-encoded strings, as the OpenAI SDK sends them),
// parallel tool calls and timestamps. Every generated file is valid in its
// format: the runner checks that parsing it reports no errors.
//
// Each format's generator is a file scripts/bench/formats/<id>.mjs (the id
// is the file name) exporting `layouts` (the first is the default) and
// `records(r, s)`: the records one format-neutral session `s`
// (./synthetic.mjs) yields. Adding a format is adding a file.
//
// `--files N` writes a folder instead: N files of one run each (a format
// whose session is one record), about `--size` bytes together (each
// session cut to the whole steps that fit its share), as a folder of
// evaluation runs is laid out.

import { openSync, writeSync, closeSync, mkdirSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rng, session } from './synthetic.mjs';

/** Python json.dumps(ensure_ascii=True): every non-ASCII character as \uXXXX. */
function ensureAscii(json) {
  return json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** The generators of scripts/bench/formats/, by file name. */
async function loadFormats() {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'formats');
  const formats = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
    const { records, layouts } = await import(pathToFileURL(join(dir, file)).href);
    if (typeof records !== 'function' || !Array.isArray(layouts) || !layouts.length || layouts.some((l) => l !== 'json' && l !== 'jsonl')) {
      throw new Error(`${join(dir, file)}: exports records(r, s) and layouts, a list of 'json' and 'jsonl'`);
    }
    formats[basename(file, '.mjs')] = { records, layouts };
  }
  return formats;
}

/** Per format: the records one session yields, and the layouts it is written in. One entry per
 * format of the core's registry, formats() (tests/node/formats.test.mjs checks). */
export const FORMATS = await loadFormats();

export function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)\s*(kb|mb|gb|b)?$/i.exec(String(s).trim());
  if (!m) throw new Error(`bad size ${s} (e.g. 10MB)`);
  const unit = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 }[(m[2] ?? 'b').toLowerCase()];
  return Math.round(Number(m[1]) * unit);
}

export function sizeName(bytes) {
  return bytes >= 1e9 ? `${bytes / 1e9}GB` : bytes >= 1e6 ? `${bytes / 1e6}MB` : `${bytes / 1e3}KB`;
}

/** Writes `format` at about `size` bytes (whole records; stops at the first record past it). */
export function generate({ format, layout, size, seed = 1, out }) {
  const spec = FORMATS[format];
  if (!spec) throw new Error(`unknown format ${format}; one of ${Object.keys(FORMATS).join(', ')} (scripts/bench/formats/)`);
  layout ??= spec.layouts[0];
  if (!spec.layouts.includes(layout)) throw new Error(`${format} is generated as ${spec.layouts.join(' or ')}`);
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.tmp`;
  const fd = openSync(tmp, 'w');
  const r = rng(`${format}:${seed}`);
  let written = 0;
  let pending = [];
  let pendingBytes = 0;
  const emit = (s) => {
    pending.push(s);
    pendingBytes += Buffer.byteLength(s);
    written += Buffer.byteLength(s);
    if (pendingBytes > 8 << 20) flush();
  };
  const flush = () => {
    writeSync(fd, pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  let records = 0;
  if (layout === 'json') emit('[\n');
  for (let i = 0; written < size; i++) {
    const s = session(r, i);
    for (const rec of spec.records(r, s)) {
      let text = JSON.stringify(rec);
      if (s.escaped) text = ensureAscii(text);
      emit(layout === 'json' ? (records ? ',\n' : '') + text : text + '\n');
      records++;
    }
  }
  if (layout === 'json') emit('\n]\n');
  flush();
  closeSync(fd);
  renameSync(tmp, out);
  return { out, bytes: written, records };
}

/**
 * `s` cut to about `budget` characters of text: its system prompt, task and
 * final answer, and the whole steps (an assistant turn and its tool results,
 * so no call loses its result) that fit before the answer.
 */
function cutSession(s, budget) {
  const size = (t) => (t.text?.length ?? 0) + (t.reasoning?.length ?? 0) + (t.calls ?? []).reduce((n, c) => n + JSON.stringify(c.args).length + 80, 0) + 80;
  const last = s.turns[s.turns.length - 1];
  const turns = s.turns.slice(0, 2);
  let used = turns.reduce((n, t) => n + size(t), size(last));
  for (let i = 2; i < s.turns.length - 1; ) {
    let j = i + 1;
    while (j < s.turns.length - 1 && s.turns[j].kind === 'tool') j++;
    const step = s.turns.slice(i, j);
    const n = step.reduce((m, t) => m + size(t), 0);
    if (turns.length > 2 && used + n > budget) break;
    turns.push(...step);
    used += n;
    i = j;
  }
  turns.push(last);
  return { ...s, turns };
}

/**
 * Writes a folder of `files` files, one run each (`run-00001.json`, …, one
 * record of `format` per file), about `size` bytes together. Only a format
 * whose session is one record can be written so.
 */
export function generateFolder({ format, size, files, seed = 1, out }) {
  const spec = FORMATS[format];
  if (!spec) throw new Error(`unknown format ${format}; one of ${Object.keys(FORMATS).join(', ')} (scripts/bench/formats/)`);
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const r = rng(`${format}:folder:${seed}`);
  const width = String(files).length;
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    // The text budget leaves room for the JSON around it (keys, escapes, metadata).
    const s = cutSession(session(r, i), ((size - bytes) / (files - i)) * 0.8);
    const recs = [...spec.records(r, s)];
    if (recs.length !== 1) throw new Error(`${format} writes ${recs.length} records per session: a folder of one run per file needs one`);
    let text = JSON.stringify(recs[0]);
    if (s.escaped) text = ensureAscii(text);
    text += '\n';
    writeFileSync(join(tmp, `run-${String(i + 1).padStart(width, '0')}.json`), text);
    bytes += Buffer.byteLength(text);
  }
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return { out, bytes, files };
}

export function folderName(format, size, files, seed = 1) {
  return `${format}-${files}-files-${sizeName(size)}${seed === 1 ? '' : `-s${seed}`}`;
}

/** The folder for (format, size, files), generated on first use. */
export function ensureFolder(dir, format, size, files, seed = 1) {
  const out = join(dir, folderName(format, size, files, seed));
  if (!existsSync(out)) generateFolder({ format, size, files, seed, out });
  return out;
}

export function fileName(format, layout, size, seed = 1) {
  return `${format}-${sizeName(size)}${seed === 1 ? '' : `-s${seed}`}.${layout}`;
}

/** The file for (format, layout, size), generated on first use. */
export function ensure(dir, format, layout, size, seed = 1) {
  const out = join(dir, fileName(format, layout, size, seed));
  if (!existsSync(out)) generate({ format, layout, size, seed, out });
  return out;
}

function main(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected ${a}`);
    const key = a.slice(2);
    args[key] = key === 'all' ? true : argv[++i];
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = args.dir ?? join(root, 'target', 'bench-data');
  const seed = Number(args.seed ?? 1);
  const sizes = (args.sizes ?? args.size ?? '1MB,10MB,100MB').split(',').map(parseSize);
  const formats = args.all ? Object.keys(FORMATS) : [args.format ?? 'openai'];
  if (args.files) {
    const files = Number(args.files);
    if (!(files >= 1) || args.all || sizes.length !== 1) throw new Error('--files N takes one --format and one --size');
    const out = args.out ?? join(dir, folderName(formats[0], sizes[0], files, seed));
    const t = performance.now();
    const res = generateFolder({ format: formats[0], size: sizes[0], files, seed, out });
    console.log(`${res.out}/: ${res.files} files, ${res.bytes} bytes (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    return;
  }
  for (const format of formats) {
    if (!FORMATS[format]) throw new Error(`unknown format ${format}; one of ${Object.keys(FORMATS).join(', ')} (scripts/bench/formats/)`);
    const layouts = args.layout ? [args.layout] : args.all ? FORMATS[format].layouts : [FORMATS[format].layouts[0]];
    for (const layout of layouts) {
      for (const size of sizes) {
        const out = args.out ?? join(dir, fileName(format, layout, size, seed));
        const t = performance.now();
        const res = generate({ format, layout, size, seed, out });
        console.log(`${res.out}: ${res.bytes} bytes, ${res.records} records (${((performance.now() - t) / 1000).toFixed(1)} s)`);
      }
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`gen: ${e.message}`);
    process.exit(2);
  }
}
