// The format-neutral half of the benchmark generator (scripts/bench/gen.mjs):
// a seeded random source, text, tool outputs and arguments, and one agent
// session that each format's generator (scripts/bench/formats/<id>.mjs) turns
// into its own records. Nothing here reads the clock: the same seed gives the
// same session.

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

/** `n` words, some unicode, with punctuation and capitals after full stops. */
export function words(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const w = r.chance(0.04) ? r.pick(UNICODE_WORDS) : r.pick(WORDS);
    out.push(i === 0 || (out[out.length - 1]?.endsWith('.') ?? false) ? w[0].toUpperCase() + w.slice(1) : w);
    if (r.chance(0.08)) out[out.length - 1] += r.pick(['.', ',', '.', ':', ';', '?']);
  }
  return out.join(' ') + '.';
}

/** Paragraphs of `words` up to about `chars` characters. */
export function paragraphs(r, chars) {
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
export function cut(s, n) {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/** `seconds` after `base` (ms since the epoch), as an ISO time in UTC. */
export function isoTime(base, seconds) {
  return new Date(base + seconds * 1000).toISOString();
}

/** A tool output of about `chars` characters, in one of several real shapes. */
export function toolOutput(r, chars) {
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

/** Arguments of a call to `tool`: a query, maybe a path, nested options, code for the runners. */
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


// ---------------------------------------------------------------- one agent session, format-neutral

/**
 * A conversation: system prompt, user task, then turns of assistant text
 * and/or parallel tool calls with their outputs, and a final answer.
 *
 * `{ id, index, start, model, escaped, turns }`: `start` in ms since the
 * epoch, `escaped` says gen.mjs writes this session's records with `\uXXXX`
 * escapes, and each turn has `kind` and `at` (an ISO time) and is
 * `system`/`user` `{ text }`, `assistant` `{ text | null, calls, reasoning }`
 * with calls `{ id, n, tool, args, asString }`, or `tool` `{ call, text, error }`.
 * The record builders draw from the same `r` after it, so what they draw is
 * part of the output: keep their order of draws when editing one.
 */
export function session(r, index) {
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
