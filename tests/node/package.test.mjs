// The npm package from Node: import by package name (through package.json
// "exports"), parse a corpus file, page through rows, filter, and fail well.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace, formats } from 'agent-trace-viewer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');

function corpusFile(folder, name) {
  const path = join(corpus, folder, name);
  assert.ok(existsSync(path), `CORPUS MISSING: ${path} (set ATV_CORPUS)`);
  return readFileSync(path);
}

test('parses a corpus trace and pages through its events', () => {
  const bytes = corpusFile('invariant', 'invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json');
  const trace = parseTrace(bytes, {});
  try {
    assert.equal(trace.format, 'openai');
    assert.equal(trace.eventCount, 44);
    assert.equal(trace.runCount, 1);
    const stats = trace.stats();
    assert.equal(stats.toolCalls, 28);
    assert.equal(stats.linkedResults, 28);
    assert.equal(stats.byRole.tool, 28);
    const page = trace.events(0, 10);
    assert.equal(page.length, 10);
    assert.deepEqual(page.map((e) => e.index), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(page[0].role, 'system');
    // Tool calls link to their results and back.
    const withCalls = trace.events(0, 44).find((e) => e.toolCalls?.length);
    const call = withCalls.toolCalls[0];
    assert.equal(typeof call.result, 'number');
    const result = trace.events(call.result, 1)[0];
    assert.equal(result.kind, 'tool-result');
    assert.deepEqual(result.call, { event: withCalls.index, call: 0 });
    assert.equal(result.callId, call.id);
    // Arguments: parsed object plus the original JSON text.
    assert.equal(typeof call.arguments, 'object');
    assert.deepEqual(JSON.parse(call.argumentsText), call.arguments);
    // Raw JSON is the exact source text of the event.
    assert.deepEqual(JSON.parse(trace.rawJson(0)).role, 'system');
    // Past the end: clamped, not an error.
    assert.equal(trace.events(40, 100).length, 4);
    assert.equal(trace.events(1000, 10).length, 0);
  } finally {
    trace.free();
  }
});

test('filter returns matching indices as a Uint32Array and explains bad queries', () => {
  const bytes = corpusFile('invariant', 'invariantlabs-ai__testing__demo__swarm_agentic_rag__trace_fixed.json');
  const trace = parseTrace(bytes);
  const tools = trace.filter('role:tool');
  assert.ok(tools instanceof Uint32Array);
  assert.deepEqual([...tools], [3, 5, 6]);
  assert.deepEqual([...trace.filter('-role:tool role:assistant')], [2, 4, 7]);
  const lunch = trace.filter('"lunch with sarah"');
  assert.ok(lunch.length >= 2, `phrase matched ${lunch.length}`);
  assert.throws(() => trace.filter('role:tool colour:red'), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /column 11/);
    assert.match(e.message, /unknown field `colour:`/);
    assert.equal(e.column, 11);
    return true;
  });
  trace.free();
});

test('diagnostics carry code, path and line:column', () => {
  const text = '[{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{bad"}}]}]';
  const trace = parseTrace(new TextEncoder().encode(text));
  const diags = trace.diagnostics();
  const d = diags.find((x) => x.code === 'arguments-not-json');
  assert.ok(d, JSON.stringify(diags));
  assert.equal(d.severity, 'error');
  assert.equal(d.path, '$[0].tool_calls[0].function.arguments');
  assert.equal(d.line, 1);
  assert.equal(d.column, text.indexOf('"{bad"') + 1);
  assert.equal(d.event, 0);
  trace.free();
});

test('inputs that are no trace throw Errors that say why', () => {
  assert.throws(() => parseTrace(new Uint8Array()), /empty/);
  assert.throws(() => parseTrace(new TextEncoder().encode('{"hello": "world"}')), /not a supported trace format.*`hello`/);
  assert.throws(() => parseTrace(new TextEncoder().encode('[1]'), { format: 'nope' }), /unknown format "nope"/);
  assert.throws(() => parseTrace(new TextEncoder().encode('[1]'), { format: 3 }), /invalid parse options: .*invalid type: floating point `3.0`, expected a string/);
  assert.ok(formats().includes('openai'));
});

test('every Invariant corpus file parses or fails with a clear message', () => {
  const dir = join(corpus, 'invariant');
  assert.ok(existsSync(dir), `CORPUS MISSING: ${dir}`);
  let loaded = 0;
  for (const name of readdirSync(dir)) {
    try {
      const t = parseTrace(readFileSync(join(dir, name)));
      assert.ok(t.eventCount > 0, name);
      t.free();
      loaded++;
    } catch (e) {
      assert.match(e.message, /not a supported trace format/, name);
    }
  }
  // All but the playground-examples list (no trace) load.
  assert.equal(loaded, readdirSync(dir).length - 1);
});

test('keys like __proto__ stay plain data: no prototype is replaced', () => {
  const src = '[{"role": "tool", "content": {"__proto__": {"polluted": 1}, "constructor": {"prototype": {"p": 1}}, "a": 1}}]';
  const t = parseTrace(new TextEncoder().encode(src));
  const row = t.events(0, 1)[0];
  assert.equal(Object.getPrototypeOf(row.json), Object.prototype);
  assert.deepEqual(Object.keys(row.json), ['__proto__', 'constructor', 'a']);
  assert.equal(row.json.polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(row.json, '__proto__').value, { polluted: 1 });
  assert.equal({}.polluted, undefined);
  assert.equal({}.p, undefined);
  t.free();
});

test('the web build also works in Node with initSync', async () => {
  const web = await import('agent-trace-viewer/web');
  web.initSync({ module: readFileSync(join(root, 'pkg', 'web', 'agent_trace_viewer_bg.wasm')) });
  const t = web.parseTrace(new TextEncoder().encode('[{"role": "user", "content": "hi"}]'));
  assert.equal(t.eventCount, 1);
  assert.equal(t.events(0, 1)[0].text, 'hi');
  t.free();
});

const QUERY_TRACE = [
  { role: 'system', content: 'You are a helpful agent.', timestamp: '2024-05-01T10:00:00Z' },
  { role: 'user', content: 'Weather in Paris?', timestamp: '2024-05-01T10:00:05Z' },
  { role: 'assistant', content: null, timestamp: '2024-05-01T10:00:06Z',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'Sunny, 21 C', timestamp: '2024-05-01T10:00:07Z' },
  { role: 'assistant', content: 'It is SUNNY.', timestamp: '2024-05-01T12:00:08+02:00' },
];

test('the first free-text query (in place, no index yet) answers as later ones (after prepareSearch)', () => {
  const files = [
    corpusFile('invariant', 'invariantlabs-ai__faithful_simulation__traces__trace_20250902_121058.json'),
    corpusFile('invariant', 'invariantlabs-ai__testing__demo__swarm_agentic_rag__trace_fixed.json'),
    corpusFile('claude-code', 'marot__spotter__test__fixtures__transcripts__tool_heavy.jsonl'),
    corpusFile('docent', 'TransluceAI__docent__docent__docent__samples__tb_airline.json'),
  ];
  const needles = ['the', 'THE', 'error', 'traceback', 'json', 'k', 'i', 'é', 'http', '"/"', 'true', 'null', '1', '"a b"', '"{"', 'zürich', '/\\d{3}-\\d{2}/'];
  for (const bytes of files) {
    const prepared = parseTrace(bytes);
    try {
      prepared.prepareSearch();
      for (const q of needles) {
        const fresh = parseTrace(bytes);
        try {
          assert.deepEqual([...fresh.filter(q)], [...prepared.filter(q)], q);
        } finally {
          fresh.free();
        }
      }
    } finally {
      prepared.free();
    }
  }
});

test('the query language: fields, OR, groups, regex, time, facets', () => {
  const trace = parseTrace(new TextEncoder().encode(JSON.stringify(QUERY_TRACE)));
  try {
    const q = (s) => [...trace.filter(s)];
    assert.deepEqual(q('role:tool OR role:system'), [0, 3]);
    assert.deepEqual(q('-(role:tool OR role:system) sunny'), [4]);
    assert.deepEqual(q('/sun+y/'), [3, 4]);
    assert.deepEqual(q('after:2024-05-01T10:00:06Z'), [3, 4]);
    assert.deepEqual(q('tool:get_weather'), [2, 3]);
    assert.throws(() => trace.filter('(role:tool'), (e) => e.column === 1 && /unclosed `\(`/.test(e.message));
    const all = trace.facets();
    assert.equal(all.total, 5);
    assert.equal(all.role.assistant, 2);
    assert.equal(all.tool.get_weather, 2);
    assert.equal(trace.facetsAt(new Uint32Array([0, 3])).role.tool, 1);
    const some = trace.facets('role:assistant');
    assert.deepEqual(some.role, { assistant: 2 });
    assert.throws(() => trace.facets('x OR'), /`OR` needs a term after it/);
    // prepareSearch builds the field ids and the text buffer ahead of the
    // first query: the same answers after it as a fresh trace gives.
    const prepared = parseTrace(new TextEncoder().encode(JSON.stringify(QUERY_TRACE)));
    try {
      prepared.prepareSearch();
      prepared.prepareSearch();
      for (const s of ['sunny', 'SUNNY', '"paris"}', 'role:TOOL', 'kind:tool-result', 'role:assistant -sunny', '/sun+y/']) {
        assert.deepEqual([...prepared.filter(s)], q(s), s);
      }
      assert.deepEqual([...prepared.filter('sunny')], [3, 4]);
    } finally {
      prepared.free();
    }
    const ts = trace.timestamps();
    assert.ok(ts instanceof Float64Array);
    assert.equal(ts[0], Date.parse('2024-05-01T10:00:00Z'));
    assert.equal(ts[4], Date.parse('2024-05-01T10:00:08Z'));
    const rows = trace.rowsAt(new Uint32Array([2, 3]));
    assert.deepEqual(rows[0].results, [3]);
    assert.equal(rows[1].callEvent, 2);
    assert.equal(rows[1].summary, 'get_weather: Sunny, 21 C');
    assert.deepEqual(trace.toolStats().map((s) => [s.tool, s.calls, s.answered, s.failures]), [['get_weather', 1, 1, 0]]);
    assert.deepEqual(trace.spans(), []);
    assert.equal(trace.diagnosticCount, 0);
    assert.deepEqual(trace.diagnosticsRange(0, 10), []);
  } finally {
    trace.free();
  }
});

test('runs: filterableFields and filterRuns over run metadata', () => {
  const lines = [
    { messages: [{ role: 'user', content: 'a' }], metadata: { scores: { correct: true, reward: 0.5 }, model: 'gpt-4o' } },
    { messages: [{ role: 'user', content: 'b' }], metadata: { scores: { correct: false, reward: 2 }, model: 'claude' } },
  ].map((l) => JSON.stringify(l)).join('\n');
  const trace = parseTrace(new TextEncoder().encode(lines));
  try {
    assert.deepEqual(trace.filterableFields(), [
      { name: 'metadata.scores.correct', type: 'bool' },
      { name: 'metadata.scores.reward', type: 'float' },
      { name: 'metadata.model', type: 'str' },
      { name: 'text', type: 'str' },
    ]);
    assert.deepEqual([...trace.filterRuns('metadata.scores.correct:true')], [0]);
    assert.deepEqual([...trace.filterRuns('metadata.scores.reward:>=1')], [1]);
    assert.deepEqual([...trace.filterRuns('claude OR gpt')], [0, 1]);
    assert.throws(() => trace.filterRuns('metadata.model:>x'), (e) => e.column === 17);
  } finally {
    trace.free();
  }
});

test('the bundled sample: rows, per-event diagnostics, tool stats, paged diagnostics', () => {
  const trace = parseTrace(readFileSync(join(root, 'www', 'samples', 'openai-weather.json')));
  try {
    assert.equal(trace.eventCount, 12);
    const rows = trace.rows(0, 100);
    assert.equal(rows.length, 12);
    assert.equal(rows[1].summary.startsWith("Here is the map of my trip."), true);
    assert.deepEqual(rows[2].results, [3, 4]);
    assert.equal(rows[6].status, 'error');
    assert.equal(rows[7].errors, 1);
    assert.equal(rows[11].warnings, 1);
    assert.deepEqual(trace.eventDiagnostics(7).map((d) => d.code), ['arguments-not-json']);
    assert.deepEqual(trace.eventDiagnostics(0), []);
    assert.equal(trace.diagnosticCount, 2);
    assert.deepEqual(trace.diagnosticsRange(1, 5).map((d) => d.code), ['unanswered-tool-call']);
    assert.deepEqual(trace.diagnosticsRange(5, 5), []);
    const stats = Object.fromEntries(trace.toolStats().map((s) => [s.tool, [s.calls, s.answered, s.failures]]));
    // The retried send_email (event 7) has an arguments diagnostic but its result
    // succeeded: one failed call, not two (a diagnostic is not a failure).
    assert.deepEqual(stats, { get_weather: [2, 2, 0], send_email: [2, 2, 1], book_restaurant: [1, 0, 0] });
    assert.deepEqual(trace.stats().tools, trace.toolStats());
  } finally {
    trace.free();
  }
});

test('__proto__, constructor and prototype keys in metadata and arguments stay plain data', () => {
  const hostile = '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted2": 1}}, "prototype": {"polluted3": 1}}';
  const src = [
    `{"metadata": ${hostile}}`,
    `{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": ${JSON.stringify(hostile)}}}]},`
      + ` {"role": "tool", "tool_call_id": "c", "content": "ok"}, {"type": "function", "function": {"name": "g", "arguments": ${hostile}}}], "metadata": ${hostile}}`,
  ].join('\n');
  const t = parseTrace(new TextEncoder().encode(src));
  try {
    const check = (obj, where) => {
      assert.equal(Object.getPrototypeOf(obj), Object.prototype, `${where}: prototype replaced`);
      assert.deepEqual(Object.keys(obj).sort(), ['__proto__', 'constructor', 'prototype'], where);
      assert.deepEqual(Object.getOwnPropertyDescriptor(obj, '__proto__').value, { polluted: 1 }, where);
      assert.equal(obj.polluted, undefined, where);
      assert.equal(typeof obj.constructor, 'object', `${where}: constructor is the data, an own property`);
      assert.deepEqual(obj.prototype, { polluted3: 1 }, where);
    };
    check(t.metadata(), 'file metadata');
    const run = t.runs()[0];
    assert.equal(Object.getPrototypeOf(run.metadata), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(run.metadata, '__proto__').value, { polluted: 1 });
    assert.equal(run.metadata.polluted, undefined);
    const rows = t.events(0, 3);
    check(rows[0].toolCalls[0].arguments, 'arguments given as a JSON string');
    check(rows[2].toolCalls[0].arguments, 'arguments of a standalone call');
    for (const probe of [{}, [], Object.create(null), new Map()]) {
      assert.equal(probe.polluted, undefined);
      assert.equal(probe.polluted2, undefined);
      assert.equal(probe.polluted3, undefined);
    }
    assert.equal(Object.prototype.polluted, undefined);
  } finally {
    t.free();
  }
});

test('compareRunsWith: a run of another trace aligned like two runs of one (an inserted step is a gap)', () => {
  const run = (calls) => {
    const messages = [{ role: 'user', content: 'fix it' }];
    calls.forEach((tool, k) => {
      messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${k}`, type: 'function', function: { name: tool, arguments: '{}' } }] });
      messages.push({ role: 'tool', tool_call_id: `c${k}`, content: 'ok' });
    });
    return JSON.stringify({ messages });
  };
  const left = parseTrace(new TextEncoder().encode(`${run(['read', 'edit'])}\n`));
  const right = parseTrace(new TextEncoder().encode(`${run(['read', 'grep', 'edit'])}\n`));
  const both = parseTrace(new TextEncoder().encode(`${run(['read', 'edit'])}\n${run(['read', 'grep', 'edit'])}\n`));
  try {
    const across = left.compareRunsWith(right, 0, 0);
    assert.deepEqual(across.steps.map((s) => s.change), ['same', 'same', 'same', 'added', 'added', 'same', 'same']);
    // The right side's indices are the other trace's events.
    assert.deepEqual(across.steps.filter((s) => s.change === 'added').map((s) => s.right), [3, 4]);
    // The same alignment as the two runs in one file (whose right indices are offset).
    const within = both.compareRuns(0, 1);
    assert.deepEqual(across.steps.map((s) => s.change), within.steps.map((s) => s.change));
    assert.throws(() => left.compareRunsWith(right, 0, 1), RangeError);
  } finally {
    left.free();
    right.free();
    both.free();
  }
});
