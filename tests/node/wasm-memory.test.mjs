// How the module's memory grows, seen from Node: V8 runs a full (major) garbage
// collection of the JavaScript heap on every `memory.grow`, so an allocator that grows
// wasm memory in small steps turns a large parse or AgentRun text into hundreds of
// collections (src/wasm/allocator.rs). Counted, not timed: the count does not depend
// on the machine's load. Its own file, so the module's memory starts small.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setImmediate as tick } from 'node:timers/promises';
import { parseTrace } from 'agent-trace-viewer';

/** An OpenAI-format run of about `mb` megabytes: many messages, each a few KB of text. */
function bigRun(mb) {
  const messages = [{ role: 'system', content: 'You are a helpful agent.' }];
  const line = 'the agent reads the file, runs the tests and reports the result; ';
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const text = `${i}: ${line.repeat(20 + (i % 40))}`;
    messages.push({ role: 'user', content: text });
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'run', arguments: `{"n": ${i}}` } }] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: text });
    size += 2 * text.length + 160;
  }
  return Buffer.from(JSON.stringify(messages));
}

async function majorCollections(work) {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    count += list.getEntries().filter((e) => (e.detail?.kind ?? e.kind) === constants.NODE_PERFORMANCE_GC_MAJOR).length;
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  await tick();
  await tick();
  observer.disconnect();
  return count;
}

test('a 40 MB parse and its AgentRun text grow memory in few steps', async (t) => {
  const bytes = bigRun(40);
  let trace;
  let textLength = 0;
  const collections = await majorCollections(() => {
    trace = parseTrace(bytes, {});
    textLength = trace.toAgentRunText({ run: 0 }).length;
  });
  t.diagnostic(`${collections} major collections`);
  try {
    assert.equal(trace.format, 'openai');
    assert.ok(textLength > 40e6, `the text has the run's ${textLength} characters`);
    // Growing by what each allocation needs (std's allocator) gave 470 here;
    // geometric steps give a few dozen for any size.
    assert.ok(collections <= 60, `${collections} major garbage collections during the parse and the text (≤ 60 expected)`);
  } finally {
    trace.free();
  }
});
