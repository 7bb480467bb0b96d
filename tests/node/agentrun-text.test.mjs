// AgentRun text through the npm package: toAgentRunText and agentRunTokenCount,
// against the goldens the real Docent libraries wrote (tests/golden/agentrun-text).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace } from 'agent-trace-viewer';
import * as tokenizer from 'agent-trace-viewer/tokenizer';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden', 'agentrun-text');
const read = (name) => readFileSync(join(golden, name), 'utf8');
const manifest = JSON.parse(read('cases.json'));

function withTrace(name, fn) {
  const trace = parseTrace(readFileSync(join(golden, `${name}.json`)), { format: 'docent' });
  try {
    return fn(trace);
  } finally {
    trace.free();
  }
}

test('legacy and current text equal the libraries\' bytes', () => {
  withTrace('yaml-meta-older', (trace) => {
    assert.equal(trace.toAgentRunText({ style: 'legacy' }), read('yaml-meta-older.legacy.txt'));
    assert.equal(trace.toAgentRunText({ style: 'current' }), read('yaml-meta-older.current.txt'));
    assert.equal(trace.toAgentRunText(), read('yaml-meta-older.current.txt'), 'current is the default');
  });
  withTrace('groups-current', (trace) => {
    for (const ctx of ['all', 'mixed', 'ties']) {
      const text = trace.toAgentRunText({ style: 'current', context: manifest.contexts[ctx] });
      assert.equal(text, read(`groups-current.current.${ctx}.txt`), ctx);
    }
  });
});

test('a token limit gives docent-python\'s chunks', () => {
  withTrace('long-older', (trace) => {
    for (const limit of [100, 600]) {
      const chunks = trace.toAgentRunText({ style: 'legacy', tokenLimit: limit }, tokenizer);
      assert.deepEqual(chunks, JSON.parse(read(`long-older.legacy.${limit}.json`)));
    }
    const whole = trace.toAgentRunText({ style: 'legacy' });
    const count = trace.agentRunTokenCount({ style: 'legacy' }, tokenizer);
    assert.equal(count, tokenizer.count(whole));
    const tokens = JSON.parse(read('tokens.json')).texts.find((t) => t.text === whole);
    assert.equal(count, tokens.count, 'tiktoken\'s count of the same text');
  });
});

test('the tokenizer module counts as tiktoken does', () => {
  assert.equal(tokenizer.encodingName(), 'cl100k_base');
  for (const { text, count } of JSON.parse(read('tokens.json')).texts) {
    assert.equal(tokenizer.count(text), count, JSON.stringify(text.slice(0, 40)));
  }
});

test('bad options and impossible requests throw Errors that say why', () => {
  withTrace('basic-older', (trace) => {
    assert.throws(() => trace.toAgentRunText({ style: 'legacy', tokenLimit: 100 }), /tokenizer/);
    assert.throws(() => trace.toAgentRunText({ style: 'current', tokenLimit: 100 }, tokenizer), /legacy/);
    assert.throws(() => trace.toAgentRunText({ style: 'yaml' }), /legacy.*current/);
    assert.throws(() => trace.toAgentRunText({ run: 3 }), /no run 3/);
    assert.throws(() => trace.toAgentRunText({ context: { type: 'transcript' } }), /agent_run/);
    assert.throws(() => trace.agentRunTokenCount({}, {}), /encode/);
  });
});

test('an openai trace renders too', () => {
  const messages = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'add 2 and 2' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 2.0}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '4' },
  ];
  const trace = parseTrace(new TextEncoder().encode(JSON.stringify(messages)));
  try {
    const text = trace.toAgentRunText({ style: 'current' });
    assert.match(text, /^<\|agent run R0\|>\n<\|transcript T0\|>/);
    assert.match(text, /<tool call>\nadd\(a=2, b=2\.0\)\n<\/tool call>/);
    assert.match(text, /<\|T0B3; role: tool\|>\n4\n/);
  } finally {
    trace.free();
  }
});

test('toAgentRun gives the Docent run the text is rendered from', () => {
  withTrace('basic-current', (trace) => {
    const run = trace.toAgentRun({});
    assert.equal(run.id, 'run-basic');
    assert.equal(run.transcripts[0].messages[2].tool_calls[0].function, 'calc');
    const again = parseTrace(new TextEncoder().encode(JSON.stringify(run)), { format: 'docent' });
    try {
      assert.equal(again.toAgentRunText({ style: 'current' }), read('basic-current.current.txt'));
    } finally {
      again.free();
    }
  });
});
