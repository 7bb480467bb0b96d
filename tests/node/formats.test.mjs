// Every format through the npm package, with expectations computed here from
// the raw JSON (or from the corpus INDEX), not from our own output. The list
// of formats is the core's registry, `formats()`: nothing here keeps one by
// hand, and every place that needs an entry per format (the page's samples,
// the XSS fixtures, the benchmark generators) is checked against it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace, formats } from 'agent-trace-viewer';
import { FIXTURES as XSS_FIXTURES } from '../fixtures/xss/generate.mjs';
import { FORMATS as BENCH_FORMATS, generate } from '../../scripts/bench/gen.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');
const fixture = (p) => readFileSync(join(root, 'tests', 'fixtures', p));
const ids = [...formats()];

/** The format the core detects for `bytes`. */
function detected(bytes) {
  const t = parseTrace(bytes);
  try {
    return t.format;
  } finally {
    t.free();
  }
}

test('formats() lists each format once', () => {
  assert.ok(ids.length > 0);
  assert.equal(new Set(ids).size, ids.length, ids.join(', '));
  for (const id of ids) assert.match(id, /^[a-z][a-z0-9-]*$/, `${id}: ids are lowercase words joined by dashes`);
});

test("every format has exactly one of the page's samples, and the core detects it as that format", () => {
  const samples = JSON.parse(readFileSync(join(root, 'www', 'samples', 'index.json'), 'utf8'));
  const seen = samples.map((s) => [s.file, detected(readFileSync(join(root, 'www', 'samples', s.file)))]);
  for (const [file, format] of seen) assert.ok(ids.includes(format), `${file} is read as ${format}, not a registered format`);
  for (const id of ids) {
    const files = seen.filter(([, f]) => f === id).map(([file]) => file);
    assert.equal(files.length, 1, `${id}: ${files.length} samples (${files.join(', ')}); www/samples/index.json needs one per format`);
  }
  // The index leaves the format to detection.
  for (const s of samples) assert.deepEqual(Object.keys(s).sort(), ['description', 'file', 'title'], s.file);
});

test('every format has one XSS fixture (tests/fixtures/xss), written by generate.mjs from its builder and detected as it', () => {
  const dir = join(root, 'tests', 'fixtures', 'xss');
  const files = readdirSync(dir).filter((f) => /\.jsonl?$/.test(f) && f !== 'payloads.json');
  assert.deepEqual(Object.keys(XSS_FIXTURES).sort(), files.sort(), 'generate.mjs writes exactly the committed fixtures');
  for (const f of files) assert.equal(readFileSync(join(dir, f), 'utf8'), XSS_FIXTURES[f], `${f}: rerun node tests/fixtures/xss/generate.mjs`);
  // A builder (tests/fixtures/<id>/xss/builder.mjs) belongs to a registered format.
  const builders = readdirSync(join(root, 'tests', 'fixtures')).filter((d) => existsSync(join(root, 'tests', 'fixtures', d, 'xss', 'builder.mjs')));
  assert.deepEqual(builders.sort(), [...ids].sort(), 'tests/fixtures/<id>/xss/builder.mjs and formats()');
  for (const id of ids) {
    const mine = files.filter((f) => f.replace(/\.jsonl?$/, '') === id);
    assert.equal(mine.length, 1, `${id}: no XSS fixture named ${id}.json or ${id}.jsonl in ${dir}`);
    assert.equal(detected(readFileSync(join(dir, mine[0]))), id, mine[0]);
  }
  for (const f of files) assert.ok(ids.includes(f.replace(/\.jsonl?$/, '')), `${f}: not named after a registered format`);
});

test('every format has a benchmark generator (scripts/bench/gen.mjs) whose output the core detects as it', () => {
  assert.deepEqual(Object.keys(BENCH_FORMATS).sort(), [...ids].sort(), 'gen.mjs FORMATS and formats()');
  const dir = mkdtempSync(join(tmpdir(), 'atv-gen-'));
  try {
    for (const id of ids) {
      for (const layout of BENCH_FORMATS[id].layouts) {
        const out = join(dir, `${id}.${layout}`);
        generate({ format: id, layout, size: 20_000, out });
        assert.equal(detected(readFileSync(out)), id, `${id} as ${layout}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('www/ holds no format id as a string literal: the page learns formats from the core', () => {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(root, 'www', 'pkg')) walk(path);
      } else if (/\.(m?js|ts|html|css|json)$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        for (const id of ids) {
          const literal = new RegExp(`(['"\`])${id.replace(/[-]/g, '\\-')}\\1`, 'g');
          for (const m of text.matchAll(literal)) found.push(`${path.slice(root.length + 1)}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
        }
      }
    }
  };
  walk(join(root, 'www'));
  assert.deepEqual(found, []);
});

test('docent: one event per message, transcripts keyed as in the file', () => {
  for (const name of ['docent/lib_current_run.json', 'docent/lib_older_run.json']) {
    const bytes = fixture(name);
    const run = JSON.parse(bytes.toString('utf8'));
    const transcripts = Array.isArray(run.transcripts)
      ? run.transcripts.map((t) => [t.id, t.messages.length])
      : Object.entries(run.transcripts).map(([k, t]) => [k, t.messages.length]);
    const t = parseTrace(bytes);
    assert.equal(t.format, 'docent', name);
    assert.equal(t.eventCount, transcripts.reduce((n, [, m]) => n + m, 0), name);
    const [r] = t.runs();
    assert.equal(r.id, run.id);
    assert.deepEqual(r.transcripts.map((x) => [x.key, x.eventCount]), transcripts);
    assert.equal(t.stats().errors, 0, name);
    t.free();
  }
});

test('agent-catalog: the corpus log gives its span tree', () => {
  const path = join(corpus, 'couchbase-agentc', 'couchbase-examples__agent-catalog-quickstart__examples__flight_search_agent__flight_search_agent_tutorial.ipynb__EXTRACTED-activity.jsonl');
  assert.ok(existsSync(path), `CORPUS MISSING: ${path}`);
  const records = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const t = parseTrace(readFileSync(path));
  assert.equal(t.format, 'agent-catalog');
  assert.equal(t.eventCount, records.length);
  const stats = t.stats();
  // INDEX: begin=10, key-value=10, end=10.
  assert.equal(stats.byKind.span, 20);
  assert.equal(stats.byKind['key-value'], 10);
  assert.equal(stats.errors, 0);
  const tree = t.spanTree();
  const paths = new Set(records.map((r) => JSON.stringify(r.span.name)));
  // Every distinct span path is a node (ancestors that never log are nodes too).
  assert.ok(tree.nodes.length >= paths.size, `${tree.nodes.length} nodes for ${paths.size} paths`);
  assert.equal(tree.roots.length, new Set(records.map((r) => r.span.name[0])).size);
  assert.equal(tree.issues.length, 0);
  const pairs = tree.nodes.flatMap((n) => n.occurrences).filter((o) => o.begin !== null && o.end !== null);
  assert.equal(pairs.length, records.filter((r) => r.content.kind === 'begin').length);
  t.free();
});

test('agentlens: a session with tool calls, decisions and errors', () => {
  const bytes = fixture('agentlens/session.json');
  const session = JSON.parse(bytes.toString('utf8'));
  const t = parseTrace(bytes);
  assert.equal(t.format, 'agentlens');
  assert.equal(t.runs()[0].id, session.session_id);
  const errorsInFile = session.events.filter((e) => e.event_type === 'agent_error' || e.event_type === 'tool_error').length;
  assert.ok(errorsInFile > 0);
  // agent_error and tool_error records are found by is:error.
  assert.ok(t.filter('is:error').length >= errorsInFile);
  t.free();
});

test('agent-catalog: NaN and the infinities in tool arguments reach JavaScript as those numbers', () => {
  // Records agentc-core accepts (pydantic's JSON parser reads the literals);
  // JSON.parse has no NaN, so they cross the wasm boundary another way.
  const t = parseTrace(fixture('agent-catalog/nonfinite.jsonl'));
  try {
    assert.equal(t.format, 'agent-catalog');
    const rows = t.events(0, 4);
    const args = rows.map((r) => r.toolCalls?.[0]?.arguments);
    assert.ok(Number.isNaN(args[0].x), JSON.stringify(args[0]));
    assert.equal(args[1].x, Infinity);
    assert.equal(args[2].x, -Infinity);
    assert.ok(Number.isNaN(args[3].x[0]));
    assert.deepEqual(args[3].x[1], { y: Infinity, z: [-Infinity, Infinity, 1.5] });
    // A string that merely spells a literal stays a string, and plain data is untouched.
    const hostile = '{"identifier": "h", "span": {"session": "s", "name": ["a"]}, "timestamp": "2025-07-07T12:00:00Z", '
      + '"content": {"kind": "tool-call", "tool_name": "f", "tool_call_id": "c", "tool_args": {"__proto__": {"n": NaN}, "s": "NaN", "i": "Infinity"}}, '
      + '"catalog_version": {"timestamp": "2025-07-04T11:20:31Z", "identifier": "v"}}';
    const h = parseTrace(new TextEncoder().encode(hostile), { format: 'agent-catalog' });
    const a = h.events(0, 1)[0].toolCalls[0].arguments;
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.ok(Number.isNaN(Object.getOwnPropertyDescriptor(a, '__proto__').value.n));
    assert.deepEqual([a.s, a.i], ['NaN', 'Infinity']);
    h.free();
  } finally {
    t.free();
  }
});

test('every corpus file: stats().tools is toolStats(), failures never exceed calls, diagnosticGroups cover diagnostics()', () => {
  const files = readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name !== 'INDEX.md')
    .map((d) => join(d.parentPath ?? d.path, d.name));
  let read = 0;
  for (const file of files) {
    let t;
    try {
      t = parseTrace(readFileSync(file));
    } catch {
      continue; // not a supported format yet
    }
    try {
      const stats = t.stats();
      assert.deepEqual(stats.tools, t.toolStats(), file);
      for (const s of stats.tools) {
        assert.ok(s.failures <= s.calls && s.answered + s.unanswered === s.calls, `${file}: ${JSON.stringify(s)}`);
      }
      const diagnostics = t.diagnostics();
      const groups = t.diagnosticGroups();
      const indices = groups.flatMap((g) => g.diagnostics).sort((a, b) => a - b);
      assert.deepEqual(indices, diagnostics.map((_, i) => i), file);
      for (const g of groups) {
        assert.equal(g.count, g.diagnostics.length, file);
        assert.equal(g.first, g.diagnostics[0], file);
        for (const i of g.diagnostics) {
          const d = diagnostics[i];
          assert.deepEqual([d.severity, d.code, d.message], [g.severity, g.code, g.message], file);
        }
        assert.equal(g.events, new Set(g.diagnostics.map((i) => diagnostics[i].event).filter((e) => e !== null)).size, file);
      }
      // In order of first occurrence.
      assert.deepEqual(groups.map((g) => g.first), [...groups.map((g) => g.first)].sort((a, b) => a - b), file);
      read += 1;
    } finally {
      t.free();
    }
  }
  assert.ok(read > 0);
});

test('usage(run): a run reports what its source says (SWE-agent model_stats), the trace the sum, a bad run throws', () => {
  const raw = JSON.parse(fixture('swe-agent/v1_function_calling.traj'));
  const stats = raw.info.model_stats;
  const t = parseTrace(fixture('swe-agent/v1_function_calling.traj'));
  try {
    const run = t.usage(0);
    assert.equal(run.total.inputTokens, stats.tokens_sent);
    assert.equal(run.total.outputTokens, stats.tokens_received);
    assert.deepEqual(t.usage(), run, 'one run: the trace total is the run total');
    assert.deepEqual(t.usage(), t.stats().usage, 'usage() is stats().usage');
    assert.throws(() => t.usage(t.runCount), (e) => e instanceof RangeError && /not a run/.test(e.message));
  } finally {
    t.free();
  }
});

/** The Langfuse cost fixture as three traces: two copies, and one whose observations report nothing. */
function threeCostRuns() {
  const text = fixture('langfuse/costs.json').toString('utf8');
  const copy = (n) => JSON.parse(text.replaceAll('trace-costs', `trace-costs-${n}`).replaceAll('"c-', `"c${n}-`));
  const bare = copy(3);
  bare.observations = bare.observations.slice(0, 1);
  bare.totalCost = null;
  return [copy(1), copy(2), bare];
}

test('runRows(): each run\'s cost is the cost its events report (usage(run).cost.total), absent when they report none', () => {
  const t = parseTrace(Buffer.from(JSON.stringify(threeCostRuns())));
  try {
    assert.equal(t.format, 'langfuse');
    const rows = t.runRows();
    assert.equal(rows.length, 3);
    for (const [i, r] of rows.entries()) {
      const cost = t.usage(i).cost;
      if (i < 2) assert.equal(r.cost, cost.total.total);
      else assert.equal('cost' in r, false, 'a run whose events report no cost has none');
    }
    assert.ok(Math.abs(rows[0].cost - 0.005335) < 1e-12, 'the fixture\'s total, as Langfuse reports it');
  } finally {
    t.free();
  }
});

test('usage(run).cost: what the trace reports (Langfuse costDetails and its deprecated fields), per model; absent, not 0, when nothing reports one', () => {
  const golden = JSON.parse(readFileSync(join(root, 'tests', 'golden', 'langfuse', 'oracle.json'), 'utf8')).files['fixtures/costs.json'].counts.cost;
  const t = parseTrace(fixture('langfuse/costs.json'));
  try {
    const { cost } = t.usage(0);
    assert.equal(cost.events, golden.events);
    assert.ok(Math.abs(cost.total.total - golden.total) < 1e-12, `${cost.total.total} vs ${golden.total}`);
    assert.deepEqual(Object.keys(cost.byModel).sort(), ['gpt-4o', 'gpt-4o-mini']);
    assert.ok(Math.abs(cost.byModel['gpt-4o'].total + cost.byModel['gpt-4o-mini'].total - cost.total.total) < 1e-12);
    assert.deepEqual(t.stats().usage.cost, cost, 'stats().usage is usage()');
    const priced = t.events(0, t.eventCount).filter((e) => e.facts?.cost);
    assert.equal(priced.length, golden.events, 'each reporting event carries its cost fact');
    const first = priced[0].facts.cost;
    assert.deepEqual([first.input, first.output], [0.00125, 0.0005]);
    assert.ok(Math.abs(first.total - 0.001875) < 1e-15, 'no total key: the sum of its kinds (input, output, input_cache_read)');
  } finally {
    t.free();
  }
  const none = parseTrace(fixture('swe-agent/v1_function_calling.traj'));
  try {
    assert.ok(none.usage().events > 0);
    assert.equal('cost' in none.usage(), false, 'no cost reported: no cost field, not 0');
    assert.ok(none.runRows().every((r) => !('cost' in r)), 'nor a cost in its run rows');
  } finally {
    none.free();
  }
});

// Claude Code's and AgentLens's event metadata stays in the source until an
// event is shown (EventMetadata); what reaches JavaScript is still the record
// less what the format reads elsewhere, computed here from the raw lines.
test('claude-code and agentlens: an event view\'s metadata is its record less the fields read elsewhere', () => {
  const lens = JSON.parse(fixture('agentlens/session.json').toString('utf8'));
  let t = parseTrace(fixture('agentlens/session.json'));
  const lensViews = t.events(0, t.eventCount ?? 100000).filter((e) => /^\$\.events\[\d+\]$/.test(e.path));
  assert.equal(lensViews.length, lens.events.length);
  for (const v of lensViews) {
    const record = lens.events[Number(v.path.match(/\d+/)[0])];
    const { event_type, timestamp, ...rest } = record;
    assert.deepEqual(v.metadata ?? {}, rest, v.path);
    assert.deepEqual(Object.keys(v.metadata ?? {}), Object.keys(rest), `${v.path}: the record's key order`);
  }
  t.free();

  const file = 'claude-code/session/11111111-2222-4333-8444-555555555555.jsonl';
  const lines = fixture(file).toString('utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  t = parseTrace(fixture(file));
  const views = t.events(0, 100000);
  let checked = 0;
  for (const v of views) {
    const record = lines[v.line - 1];
    if (!record || !['user', 'assistant'].includes(record.type) || v.kind === 'marker') continue;
    const want = new Set(Object.keys(record).filter((k) => k !== 'type' && k !== 'timestamp'));
    // What the reading adds (docs/formats/claude-code.md): an abandoned branch's mark.
    const added = new Set(['abandoned_branch', 'continues_event']);
    assert.deepEqual(new Set(Object.keys(v.metadata ?? {}).filter((k) => !added.has(k))), want, `line ${v.line}`);
    const { content, ...message } = record.message;
    assert.deepEqual(v.metadata.message, message, `line ${v.line}: message less its content`);
    for (const k of ['uuid', 'parentUuid', 'sessionId', 'cwd', 'requestId', 'toolUseResult']) {
      if (k in record) assert.deepEqual(v.metadata[k], record[k], `line ${v.line}: ${k}`);
    }
    checked++;
  }
  assert.ok(checked >= 5, `checked ${checked} user/assistant events`);
  t.free();
});
