// AgentRun text against Docent's own: one large run (the kit's OpenAI trace of
// that size, its runs joined into one), rendered by `toAgentRunText({ style:
// 'current' })` in a fresh Node process (so the first call is the first call) and
// by docent 0.1.88's `AgentRunView.from_agent_run(run).to_text()` from its pinned
// venv (scripts/bench/docent_text.py) on the run as `toAgentRun` maps it, which
// is what Docent would ingest. The two texts must be the same bytes; the row is
// our first call's time over Docent's.
//
//   node scripts/bench/agentrun-docent.mjs [--size 100MB]      (prints the result as JSON)

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensure, parseSize, sizeName } from './gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** The kit's OpenAI JSON Lines trace of `size`, its runs' messages as one run (call ids made unique). */
export function ensureOneRun(dataDir, size) {
  const out = join(dataDir, `openai-onerun-${sizeName(size)}.json`);
  if (existsSync(out)) return out;
  const lines = readFileSync(ensure(dataDir, 'openai', 'jsonl', size), 'utf8').split('\n');
  const messages = [];
  lines.forEach((line, k) => {
    if (!line.trim()) return;
    for (const m of JSON.parse(line).messages) {
      for (const c of m.tool_calls ?? []) c.id = `${c.id}_${k}`;
      if (m.tool_call_id) m.tool_call_id = `${m.tool_call_id}_${k}`;
      messages.push(m);
    }
  });
  writeFileSync(`${out}.tmp`, JSON.stringify(messages));
  renameSync(`${out}.tmp`, out);
  return out;
}

/** In a fresh process: parse, then the text twice (first call, second call); writes the run's AgentRun JSON for Docent. */
function ours(file) {
  const atv = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
  const trace = atv.parseTrace(readFileSync(file));
  const timed = () => {
    const t0 = performance.now();
    const text = trace.toAgentRunText({ style: 'current', run: 0 });
    return [performance.now() - t0, text];
  };
  const [firstMs, text] = timed();
  const [secondMs] = timed();
  const runJson = `${file}.agentrun.json`;
  if (!existsSync(runJson)) {
    writeFileSync(`${runJson}.tmp`, JSON.stringify(trace.toAgentRun({ run: 0 })));
    renameSync(`${runJson}.tmp`, runJson);
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  return { firstMs, secondMs, chars: text.length, sha256, messages: trace.eventCount, runJson };
}

export function measureAgentRunVsDocent(dataDir, size) {
  const file = ensureOneRun(dataDir, size);
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--ours', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) return { file, error: `ours: ${child.stderr.trim().split('\n').pop()}` };
  const us = JSON.parse(child.stdout);
  const py = spawnSync('python3', [join(here, 'docent_text.py'), us.runJson], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (py.status !== 0) return { file, ...us, error: `docent: ${py.stderr.trim().split('\n').pop()}` };
  const docent = JSON.parse(py.stdout.trim().split('\n').pop());
  return { file, bytes: readFileSync(file).length, ...us, docentMs: docent.ms, sameText: docent.sha256 === us.sha256 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--ours') {
    process.stdout.write(JSON.stringify(ours(args[1])));
  } else {
    const i = args.indexOf('--size');
    const size = parseSize(i >= 0 ? args[i + 1] : '100MB');
    console.log(JSON.stringify(measureAgentRunVsDocent(join(root, 'target', 'bench-data'), size), null, 1));
  }
}
