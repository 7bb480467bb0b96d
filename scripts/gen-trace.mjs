// Writes a large, deterministic OpenAI-format trace (Invariant Explorer JSON
// Lines: one `{messages, metadata}` run per line) for load tests. The same
// arguments always give the same bytes (a seeded PRNG, fixed timestamps).
//
//   node scripts/gen-trace.mjs OUT.jsonl [MEGABYTES=100]
//
// Each run: a system prompt, a user task, then steps of an assistant message
// with one or two tool calls and their tool results (some failing), and a
// final answer. Prints the event and run counts.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** mulberry32: small, fast, deterministic. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the agent reads file config value error test build cache request user task plan step result ' +
  'check update query index server client token model trace tool call output input list search fix retry').split(' ');
const TOOLS = ['read_file', 'write_file', 'run_tests', 'search_code', 'list_dir', 'http_get'];

export async function generate(out, megabytes = 100) {
  const target = megabytes * 1024 * 1024;
  const random = rng(20240501);
  const pick = (a) => a[Math.floor(random() * a.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const stream = createWriteStream(out);
  let bytes = 0;
  let runs = 0;
  let events = 0;
  let clock = Date.parse('2024-05-01T00:00:00Z');
  const at = () => {
    clock += 200 + Math.floor(random() * 3000);
    return new Date(clock).toISOString();
  };
  while (bytes < target) {
    const messages = [
      { role: 'system', content: `You are agent ${runs}. ${words(30)}`, timestamp: at() },
      { role: 'user', content: `Task ${runs}: ${words(40)}`, timestamp: at() },
    ];
    const steps = 60 + Math.floor(random() * 60);
    for (let s = 0; s < steps; s++) {
      const calls = Array.from({ length: random() < 0.2 ? 2 : 1 }, (_, c) => ({
        id: `call_${runs}_${s}_${c}`,
        type: 'function',
        function: { name: pick(TOOLS), arguments: JSON.stringify({ path: `src/${pick(WORDS)}/${pick(WORDS)}.rs`, query: words(4) }) },
      }));
      messages.push({ role: 'assistant', content: words(10 + Math.floor(random() * 30)), tool_calls: calls, timestamp: at() });
      for (const call of calls) {
        const failed = random() < 0.05;
        const result = { role: 'tool', tool_call_id: call.id, content: failed ? `error: ${words(8)}` : words(20 + Math.floor(random() * 80)), timestamp: at() };
        if (failed) result.error = 'tool failed';
        messages.push(result);
      }
    }
    messages.push({ role: 'assistant', content: `Done with task ${runs}: ${words(25)}`, timestamp: at() });
    const line = JSON.stringify({ messages, metadata: { run: runs, model: pick(['gpt-4o', 'claude-3-5', 'llama-3']), scores: { correct: random() < 0.6, reward: Math.round(random() * 100) / 100 } } }) + '\n';
    bytes += Buffer.byteLength(line);
    events += messages.length;
    runs++;
    if (!stream.write(line)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  return { bytes, runs, events };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [out, mb] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/gen-trace.mjs OUT.jsonl [MEGABYTES=100]');
    process.exit(2);
  }
  const r = await generate(out, Number(mb ?? 100));
  console.log(`${out}: ${r.bytes} bytes, ${r.runs} runs, ${r.events} events`);
}
