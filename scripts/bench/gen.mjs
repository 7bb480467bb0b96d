#!/usr/bin/env node
// Deterministic generator of synthetic agent traces for the benchmarks.
//
//   node scripts/bench/gen.mjs --format openai --size 100MB [--layout json|jsonl] [--seed 1] [--out FILE]
//   node scripts/bench/gen.mjs --all --sizes 1MB,10MB,100MB --dir target/bench-data
//
// The same (format, layout, size, seed) always gives the same bytes: the
// random source is a seeded PRNG and nothing reads the clock. Traces are
// shaped like real ones: long tool outputs (logs, listings, tracebacks,
// pretty JSON, web text), unicode (accents, CJK, emoji, and on some runs
// `\uXXXX` escapes as Python's json.dumps writes them), nested tool
// arguments (some as JSON-encoded strings, as the OpenAI SDK sends them),
// parallel tool calls and timestamps. Every generated file is valid in its
// format: the runner checks that parsing it reports no errors.

import { openSync, writeSync, closeSync, mkdirSync, existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------- random

/** sfc32, seeded through splitmix32 of the seed string's hash. */
export function rng(seed) {
  let h = 2166136261 >>> 0;
  for (const c of String(seed)) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const split = () => {
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split(), b = split(), c = split(), d = split();
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    /** Log-normal-ish length: most short, a long tail. */
    length: (median, max) => Math.min(max, Math.max(1, Math.round(median * Math.exp((next() + next() + next() - 1.5) * 2.2)))),
    id: (n, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') => {
      let s = '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
      return s;
    },
    uuid: () => {
      const hx = r.id(32, '0123456789abcdef');
      return `${hx.slice(0, 8)}-${hx.slice(8, 12)}-4${hx.slice(13, 16)}-a${hx.slice(17, 20)}-${hx.slice(20)}`;
    },
  };
  return r;
}

// ---------------------------------------------------------------- text

const WORDS = (
  'the of and to in is that for it as with was on be by at this are from or have an not which but all were ' +
  'when there can more has one their if will each about how up out them then many some so these would other into ' +
  'file function error value test result request response server client config build deploy module package ' +
  'update check return list data user agent tool call output input query search index table record field ' +
  'string number object array null true false timeout retry cache token model prompt message system assistant ' +
  'invoice customer order payment account balance transfer schedule meeting calendar weather forecast flight ' +
  'hotel booking refund ticket issue commit branch merge review patch diff repository directory path process'
).split(' ');
const UNICODE_WORDS = ['naïve', 'café', 'Zürich', 'São Paulo', 'façade', 'Ærøskøbing', 'Straße', 'crème brûlée',
  '東京', '日本語のテキスト', 'データ', '北京', '서울', 'Привет', 'Москва', 'Ελλάδα', 'שלום', 'مرحبا', 'हिन्दी',
  '—', '→', '…', '✓', '€42', '½', '😀', '🚀', '👍🏽', '🇩🇪', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢'];
const FILES = ['src/main.py', 'src/utils/helpers.py', 'tests/test_api.py', 'README.md', 'package.json', 'lib/index.ts',
  'app/models/user.rb', 'cmd/server/main.go', 'src/lib.rs', 'docs/guide.md', 'config/settings.yaml', 'Makefile'];
const TOOLS = ['search_web', 'read_file', 'write_file', 'run_bash', 'list_directory', 'edit_file', 'get_weather',
  'query_database', 'send_email', 'browser_navigate', 'browser_click', 'get_inbox', 'create_event', 'get_balance',
  'transfer_money', 'lookup_flight', 'book_hotel', 'git_diff', 'run_tests', 'python_exec', 'fetch_url', 'grep_code'];

function words(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const w = r.chance(0.04) ? r.pick(UNICODE_WORDS) : r.pick(WORDS);
    out.push(i === 0 || (out[out.length - 1]?.endsWith('.') ?? false) ? w[0].toUpperCase() + w.slice(1) : w);
    if (r.chance(0.08)) out[out.length - 1] += r.pick(['.', ',', '.', ':', ';', '?']);
  }
  return out.join(' ') + '.';
}

function paragraphs(r, chars) {
  const out = [];
  let n = 0;
  while (n < chars) {
    const p = words(r, r.int(8, 60));
    out.push(p);
    n += p.length + 2;
  }
  return out.join(r.chance(0.5) ? '\n\n' : '\n');
}

/** The first `n` UTF-16 units of `s`, never splitting a surrogate pair (a lone half is not valid Unicode). */
function cut(s, n) {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

function isoTime(base, seconds) {
  return new Date(base + seconds * 1000).toISOString();
}

/** A tool output of about `chars` characters, in one of several real shapes. */
function toolOutput(r, chars) {
  const kind = r.int(0, 5);
  const lines = [];
  let n = 0;
  const push = (l) => {
    lines.push(l);
    n += l.length + 1;
  };
  switch (kind) {
    case 0: // directory listing
      while (n < chars) push(`-rw-r--r--  1 agent staff ${String(r.int(10, 999999)).padStart(7)} Mar ${r.int(1, 28)} ${r.int(10, 23)}:${r.int(10, 59)} ${r.pick(FILES).replace('.', `_${r.int(0, 99)}.`)}`);
      break;
    case 1: // log lines
      while (n < chars) push(`${isoTime(1735689600000, r.int(0, 86400 * 30))} ${r.pick(['INFO ', 'DEBUG', 'WARN ', 'ERROR'])} [${r.pick(['http', 'db', 'worker', 'scheduler'])}] ${words(r, r.int(4, 16))}`);
      break;
    case 2: // traceback
      push('Traceback (most recent call last):');
      while (n < chars) {
        push(`  File "/workspace/${r.pick(FILES)}", line ${r.int(1, 900)}, in ${r.pick(WORDS)}_${r.pick(WORDS)}`);
        push(`    ${r.pick(['result = ', 'return ', 'self.', 'await '])}${r.pick(WORDS)}(${r.pick(WORDS)}, "${r.pick(UNICODE_WORDS)}")`);
      }
      push(`${r.pick(['ValueError', 'KeyError', 'TimeoutError', 'AssertionError'])}: ${words(r, 8)}`);
      break;
    case 3: { // pretty JSON from an API
      const items = [];
      let size = 0;
      while (size < chars) {
        const item = { id: r.int(1, 1e6), name: words(r, 3), tags: [r.pick(WORDS), r.pick(UNICODE_WORDS)], score: Math.round(r.next() * 1000) / 1000, nested: { ok: r.chance(0.8), note: words(r, r.int(3, 20)) } };
        items.push(item);
        size += 160 + item.nested.note.length;
      }
      return JSON.stringify({ status: 200, count: items.length, items }, null, 2);
    }
    case 4: // web page text / accessibility tree
      while (n < chars) push(`${'  '.repeat(r.int(0, 4))}[${r.int(1, 9999)}] ${r.pick(['link', 'button', 'heading', 'StaticText', 'textbox'])} '${words(r, r.int(2, 12))}'`);
      break;
    default: // prose
      return paragraphs(r, chars);
  }
  return lines.join('\n');
}

function toolArguments(r, tool) {
  const args = { query: words(r, r.int(2, 10)) };
  if (r.chance(0.6)) args.path = `/workspace/${r.pick(FILES)}`;
  if (r.chance(0.5)) {
    args.options = {
      max_results: r.int(1, 50),
      filters: { lang: [r.pick(['en', 'de', 'ja', 'fr'])], date: { from: '2025-01-01', to: '2025-03-31' }, tags: [r.pick(WORDS), r.pick(UNICODE_WORDS)] },
      recursive: r.chance(0.5),
    };
  }
  if (tool === 'python_exec' || tool === 'run_bash') args.code = toolOutput(r, r.length(200, 4000));
  return args;
}

/** Python json.dumps(ensure_ascii=True): every non-ASCII character as \uXXXX. */
function ensureAscii(json) {
  return json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// ---------------------------------------------------------------- one agent session, format-neutral

/**
 * A conversation: system prompt, user task, then turns of assistant text
 * and/or parallel tool calls with their outputs, and a final answer.
 */
function session(r, index) {
  const start = 1735689600000 + index * 3_600_000;
  let t = 0;
  const turns = [];
  const tick = () => isoTime(start, (t += r.int(1, 40)));
  turns.push({ kind: 'system', text: `You are a helpful agent. ${paragraphs(r, r.length(400, 3000))}`, at: tick() });
  turns.push({ kind: 'user', text: paragraphs(r, r.length(200, 3000)), at: tick() });
  const steps = r.int(4, 30);
  let callNo = 0;
  for (let s = 0; s < steps; s++) {
    const calls = [];
    const parallel = r.chance(0.2) ? r.int(2, 3) : 1;
    for (let c = 0; c < parallel; c++) {
      const tool = r.pick(TOOLS);
      calls.push({ id: `call_${r.id(24)}`, n: callNo++, tool, args: toolArguments(r, tool), asString: r.chance(0.5) });
    }
    turns.push({ kind: 'assistant', text: r.chance(0.6) ? words(r, r.length(40, 600)) : null, calls, reasoning: r.chance(0.15) ? words(r, r.length(60, 400)) : null, at: tick() });
    for (const c of calls) {
      const chars = r.chance(0.03) ? r.int(20_000, 100_000) : r.length(500, 20_000);
      turns.push({ kind: 'tool', call: c, text: toolOutput(r, chars), error: r.chance(0.05), at: tick() });
    }
  }
  turns.push({ kind: 'assistant', text: paragraphs(r, r.length(300, 4000)), calls: [], at: tick() });
  return { id: r.uuid(), index, start, turns, model: r.pick(['gpt-4o-2024-08-06', 'gpt-4.1', 'claude-sonnet-4', 'o3-mini']), escaped: r.chance(0.3) };
}

// ---------------------------------------------------------------- formats

function openaiRow(r, s) {
  const stamp = r.chance(0.5);
  const messages = s.turns.map((t) => {
    const at = stamp ? { timestamp: t.at } : {};
    switch (t.kind) {
      case 'system': return { role: 'system', content: t.text, ...at };
      case 'user': return { role: 'user', content: r.chance(0.3) ? [{ type: 'text', text: t.text }] : t.text, ...at };
      case 'assistant': {
        const m = { role: 'assistant', content: t.text, ...at };
        if (t.calls.length) {
          m.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.tool, arguments: c.asString ? JSON.stringify(c.args) : c.args } }));
        }
        return m;
      }
      default: return { role: 'tool', tool_call_id: t.call.id, content: t.text, ...(t.error ? { error: 'tool failed' } : {}), ...at };
    }
  });
  return { messages, metadata: { id: s.id, model: s.model, created_at: isoTime(s.start, 0), task: `task-${s.index}`, tags: ['synthetic', s.model], score: Math.round(r.next() * 100) / 100 } };
}

function docentRun(r, s) {
  const messages = s.turns.map((t) => {
    switch (t.kind) {
      case 'system':
      case 'user': return { role: t.kind, content: t.text };
      case 'assistant': {
        const m = { role: 'assistant', content: t.reasoning ? [{ type: 'reasoning', reasoning: t.reasoning }, { type: 'text', text: t.text ?? '' }] : (t.text ?? '') };
        if (t.calls.length) m.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: c.tool, arguments: c.args }));
        return m;
      }
      default: return { role: 'tool', content: t.text, tool_call_id: t.call.id, function: t.call.tool, ...(t.error ? { error: { type: 'unknown', message: 'tool failed' } } : {}) };
    }
  });
  return {
    id: s.id, name: `synthetic run ${s.index}`, description: null,
    transcripts: [{ id: `t-${s.index}`, name: 'main', messages, metadata: { model: s.model } }],
    metadata: { scores: { success: r.chance(0.5), reward: Math.round(r.next() * 100) / 100 }, task: `task-${s.index}`, model: s.model },
  };
}

function agentlensSession(r, s) {
  const events = [];
  const session_id = s.id;
  let tin = 0, tout = 0;
  let prompt = null;
  for (const t of s.turns) {
    const base = { event_id: r.uuid(), session_id, timestamp: t.at };
    if (t.kind === 'system' || t.kind === 'user') {
      prompt = (prompt ? prompt + '\n\n' : '') + t.text;
    } else if (t.kind === 'assistant') {
      const tokens_in = r.int(100, 8000), tokens_out = r.int(10, 800);
      tin += tokens_in; tout += tokens_out;
      events.push({ ...base, event_type: 'llm_call', input_data: { prompt: prompt ?? '' }, output_data: { response: t.text ?? '', tool_calls: t.calls.map((c) => c.tool) }, model: s.model, tokens_in, tokens_out, duration_ms: r.int(100, 9000) + 0.5 });
      prompt = null;
      if (t.reasoning) events.push({ ...base, event_id: r.uuid(), event_type: 'decision', decision_trace: { trace_id: r.uuid(), step: events.length, reasoning: t.reasoning, alternatives_considered: [words(r, 4), words(r, 5)], confidence: Math.round(r.next() * 100) / 100, timestamp: t.at } });
    } else {
      const c = t.call;
      events.push({ ...base, event_type: t.error ? 'tool_error' : 'tool_call', tool_call: { tool_call_id: c.id, tool_name: c.tool, tool_input: c.args, tool_output: t.error ? null : { result: t.text }, timestamp: t.at, duration_ms: r.int(1, 5000) + 0.25 }, ...(t.error ? { output_data: { error: cut(t.text, 2000) } } : {}) });
    }
  }
  return { session_id, agent_name: `agent-${s.index % 17}`, started_at: isoTime(s.start, 0), ended_at: s.turns[s.turns.length - 1].at, metadata: { model: s.model, task: `task-${s.index}` }, events, total_tokens_in: tin, total_tokens_out: tout, status: 'completed' };
}

function catalogRecords(r, s) {
  const session = s.id;
  const version = { timestamp: '2025-07-04T11:20:31.313387Z', identifier: '502f8f9', is_dirty: false, version_system: 'git' };
  const root = [`Agent ${s.index % 5}`];
  const out = [];
  const rec = (at, name, content) => out.push({ identifier: r.uuid(), span: { session, name }, timestamp: at.replace('Z', '+05:30'), content, annotations: { agent_name: root[0] }, catalog_version: version });
  rec(s.turns[0].at, root, { kind: 'begin', state: { task: `task-${s.index}` } });
  for (const t of s.turns) {
    const name = [...root, 'step'];
    if (t.kind === 'system' || t.kind === 'user') rec(t.at, name, { kind: t.kind, value: t.text });
    else if (t.kind === 'assistant') {
      rec(t.at, name, { kind: 'chat-completion', output: t.text ?? '', meta: { model: s.model, usage: { prompt_tokens: r.int(100, 8000), completion_tokens: r.int(10, 800) } } });
      for (const c of t.calls) rec(t.at, name, { kind: 'tool-call', tool_name: c.tool, tool_args: c.args, tool_call_id: c.id, tool_result: null, status: 'success' });
    } else rec(t.at, name, { kind: 'tool-result', tool_call_id: t.call.id, tool_result: t.text, status: t.error ? 'error' : 'success' });
  }
  rec(s.turns[s.turns.length - 1].at, root, { kind: 'end' });
  return out;
}

function openhandsInstance(r, s) {
  const history = [];
  const ev = (at, source, fields) => history.push({ id: r.uuid(), timestamp: at.replace('Z', ''), source, parent_id: null, ...fields });
  const text = (t) => ({ cache_prompt: false, type: 'text', text: t });
  const actionIds = new Map();
  for (const t of s.turns) {
    if (t.kind === 'system') {
      ev(t.at, 'agent', { system_prompt: text(t.text), tools: [], dynamic_context: null, kind: 'SystemPromptEvent' });
    } else if (t.kind === 'user' || (t.kind === 'assistant' && !t.calls.length)) {
      ev(t.at, t.kind === 'user' ? 'user' : 'agent', {
        llm_message: { role: t.kind, content: [text(t.text ?? '')], tool_calls: null, tool_call_id: null, name: null, reasoning_content: null, thinking_blocks: [], responses_reasoning_item: null },
        llm_response_id: null, activated_skills: [], extended_content: [], sender: null, critic_result: null, kind: 'MessageEvent',
      });
    } else if (t.kind === 'assistant') {
      const resp = `resp-${r.id(12)}`;
      t.calls.forEach((c, i) => {
        const command = c.args.code ?? `grep -rn "${cut(c.args.query, 40).replace(/"/g, '')}" /workspace`;
        ev(t.at, 'agent', {
          thought: i === 0 && t.text ? [text(t.text)] : [], reasoning_content: i === 0 ? t.reasoning : null, thinking_blocks: [], responses_reasoning_item: null,
          action: { command, is_input: false, timeout: null, reset: false, kind: 'TerminalAction' },
          tool_name: 'terminal', tool_call_id: c.id,
          tool_call: { id: c.id, responses_item_id: null, name: 'terminal', arguments: JSON.stringify({ command, security_risk: 'LOW' }), origin: 'completion' },
          llm_response_id: resp, security_risk: 'LOW', critic_result: null, summary: null, kind: 'ActionEvent',
        });
        actionIds.set(c.id, { id: history[history.length - 1].id, command });
      });
    } else {
      const a = actionIds.get(t.call.id);
      ev(t.at, 'environment', {
        tool_name: 'terminal', tool_call_id: t.call.id,
        observation: { content: [text(t.text)], is_error: t.error, command: a.command, exit_code: t.error ? 1 : 0, timeout: false, metadata: { exit_code: t.error ? 1 : 0, pid: -1, username: null, hostname: null, working_dir: '/workspace', py_interpreter_path: null, prefix: '', suffix: '' }, full_output_save_dir: null, kind: 'TerminalObservation' },
        action_id: a.id, extended_content: [], kind: 'ObservationEvent',
      });
    }
  }
  return { instance_id: `synthetic-${s.index}`, test_result: { score: r.int(0, 1) }, instruction: cut(s.turns[1].text, 500), metadata: { model: s.model, max_iterations: 100 }, history, error: null };
}

/** Per format: the records one session yields, and the layouts it is written in. One entry per
 * format of the core's registry, formats() (tests/node/formats.test.mjs checks). */
export const FORMATS = {
  openai: { records: (r, s) => [openaiRow(r, s)], layouts: ['json', 'jsonl'] },
  docent: { records: (r, s) => [docentRun(r, s)], layouts: ['jsonl', 'json'] },
  agentlens: { records: (r, s) => [agentlensSession(r, s)], layouts: ['jsonl', 'json'] },
  'agent-catalog': { records: catalogRecords, layouts: ['jsonl', 'json'] },
  openhands: { records: (r, s) => [openhandsInstance(r, s)], layouts: ['jsonl'] },
};

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
  if (!spec) throw new Error(`unknown format ${format}; one of ${Object.keys(FORMATS).join(', ')}`);
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
  for (const format of formats) {
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
