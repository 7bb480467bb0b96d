#!/usr/bin/env node
// A generated Inspect `.eval` of about `--size` bytes: a real zip (deflated
// members, node:zlib) laid out as inspect_ai 0.3.285 writes a finished log
// (inspect_ai/log/_recorders/eval.py): `_journal/start.json` (version, eval,
// plan), `samples/<id>_epoch_<n>.json` (one EvalSample each, as
// scripts/bench/formats/inspect.mjs shapes them from the benchmark kit's
// sessions), `summaries.json` (an EvalSampleSummary per sample: id, epoch,
// thinned input, target, scores, model_usage, times, uuid, error, limit,
// message_count, completed), `reductions.json` and `header.json` (the log
// without samples: eval spec, plan, results, stats), written last as
// inspect_ai writes it. Deterministic: the same size and seed give the same
// bytes (no clock, a seeded random source).
//
//   node scripts/bench/eval-archive.mjs --size 500MB [--seed 1] [--out FILE] [--epochs 1]
//
// `ensureEval(dir, size)` writes (once) and returns target/bench-data/inspect-<size>.eval.

import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { rng, session } from './synthetic.mjs';
import { records } from './formats/inspect.mjs';
import { parseSize, sizeName } from './gen.mjs';

/** A zip written member by member: local headers with their sizes, then the central directory. */
class ZipWriter {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.offset = 0;
    this.entries = [];
  }

  write(buf) {
    writeSync(this.fd, buf);
    this.offset += buf.length;
  }

  add(name, data, level = 1) {
    const nameBytes = Buffer.from(name, 'utf8');
    const raw = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    const body = deflateRawSync(raw, { level });
    const crc = crc32(raw);
    if (this.offset > 0xffff_fff0 || body.length > 0xffff_fff0) throw new Error('past 4 GB: this writer writes no ZIP64');
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4); // version needed
    head.writeUInt16LE(0x0800, 6); // UTF-8 names
    head.writeUInt16LE(8, 8); // deflate
    head.writeUInt16LE(0, 10); // time
    head.writeUInt16LE(0x5b21, 12); // date: 2025-09-01
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(body.length, 18);
    head.writeUInt32LE(raw.length, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    head.writeUInt16LE(0, 28);
    this.entries.push({ nameBytes, crc, compressed: body.length, size: raw.length, offset: this.offset });
    this.write(head);
    this.write(nameBytes);
    this.write(body);
    return body.length + 30 + nameBytes.length;
  }

  close() {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0800, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(0, 12);
      h.writeUInt16LE(0x5b21, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.nameBytes.length, 28);
      h.writeUInt32LE(e.offset, 42);
      this.write(h);
      this.write(e.nameBytes);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
    closeSync(this.fd);
    return this.offset;
  }
}

/** inspect_ai's `thin_input`/summary of a sample: what `summaries.json` holds for it. */
function summaryOf(sample) {
  const input = typeof sample.input === 'string' && sample.input.length > 5120 ? `${sample.input.slice(0, 5120)}...` : sample.input;
  return {
    id: sample.id,
    epoch: sample.epoch,
    input,
    target: sample.target,
    metadata: sample.metadata,
    scores: Object.fromEntries(Object.entries(sample.scores).map(([k, s]) => [k, { value: s.value }])),
    model_usage: sample.model_usage,
    total_time: sample.total_time,
    working_time: sample.working_time,
    uuid: sample.uuid,
    error: sample.error?.message ?? null,
    limit: sample.limit ?? null,
    retries: null,
    completed: true,
    message_count: sample.messages.length,
  };
}

/**
 * Writes the `.eval` at `out`, about `size` bytes (whole samples; stops at
 * the first past it); `needles` maps a run id (`<id>_epoch_<n>`) to a text
 * added to that sample's last tool output. Returns { out, bytes, samples, inflated }.
 */
export function generateEval({ size, seed = 1, out, epochs = 1, needles = {} }) {
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.tmp`;
  const zip = new ZipWriter(tmp);
  const r = rng(`inspect-eval:${seed}`);
  const model = 'openai/gpt-4o';
  const evalSpec = {
    eval_id: 'bench-eval', run_id: 'bench-run', created: '2025-01-01T00:00:00+00:00', task: 'bench/agentic_task', task_id: 'bench-task', task_version: 0,
    task_file: 'bench.py', task_args: {}, solver: 'basic_agent', dataset: { name: 'bench', location: 'bench.jsonl', samples: 0, shuffled: false },
    model, model_args: {}, config: { epochs }, packages: { inspect_ai: '0.3.285' }, metadata: {},
  };
  const plan = { name: 'plan', steps: [{ solver: 'basic_agent', params: {} }], config: {} };
  zip.add('_journal/start.json', JSON.stringify({ version: 2, eval: evalSpec, plan }));
  const summaries = [];
  let inflated = 0;
  let i = 0;
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  while (zip.offset < size) {
    const s = session(r, i);
    for (let epoch = 1; epoch <= epochs && zip.offset < size; epoch++) {
      const [sample] = records(r, { ...s, model });
      sample.epoch = epoch;
      // A text only this sample's body holds (its last tool message and tool event), for tests of a search.
      const needle = needles[`${sample.id}_epoch_${epoch}`];
      if (needle) {
        const tool = sample.messages.findLast((m) => m.role === 'tool');
        const event = sample.events.findLast((e) => e.event === 'tool');
        if (tool) tool.content = `${tool.content}\n${needle}`;
        if (event) event.result = `${event.result}\n${needle}`;
      }
      sample.model_usage = { [model]: sample.model_usage[s.model] ?? Object.values(sample.model_usage)[0] };
      for (const k of Object.keys(usage)) usage[k] += sample.model_usage[model][k] ?? 0;
      const text = JSON.stringify(sample);
      inflated += Buffer.byteLength(text);
      zip.add(`samples/${sample.id}_epoch_${epoch}.json`, text);
      summaries.push(summaryOf(sample));
    }
    i++;
  }
  evalSpec.dataset.samples = i;
  const correct = summaries.filter((x) => x.scores.match?.value === 'C').length;
  zip.add('summaries.json', JSON.stringify(summaries));
  zip.add('reductions.json', JSON.stringify([{ scorer: 'match', samples: summaries.map((x) => ({ sample_id: x.id, value: x.scores.match.value === 'C' ? 1 : 0 })) }]));
  const header = {
    version: 2, status: 'success', eval: evalSpec, plan,
    results: { total_samples: summaries.length, completed_samples: summaries.length, scores: [{ name: 'match', scorer: 'match', params: {}, metrics: { accuracy: { name: 'accuracy', value: correct / Math.max(1, summaries.length), params: {} } } }] },
    stats: { started_at: '2025-01-01T00:00:00+00:00', completed_at: '2025-01-01T06:00:00+00:00', model_usage: { [model]: usage } },
  };
  zip.add('header.json', JSON.stringify(header));
  const bytes = zip.close();
  renameSync(tmp, out);
  return { out, bytes, samples: summaries.length, inflated };
}

/** target/bench-data/inspect-<size>.eval, written once. */
export function ensureEval(dir, size, seed = 1) {
  const out = join(dir, `inspect-${sizeName(size)}-seed${seed}.eval`);
  if (!existsSync(out)) generateEval({ size, seed, out });
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  let size = parseSize('500MB');
  let seed = 1;
  let epochs = 1;
  let out = null;
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--size') size = parseSize(argv[++k]);
    else if (argv[k] === '--seed') seed = Number(argv[++k]);
    else if (argv[k] === '--epochs') epochs = Number(argv[++k]);
    else if (argv[k] === '--out') out = argv[++k];
    else throw new Error(`unexpected ${argv[k]}`);
  }
  out ??= join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'target', 'bench-data', `inspect-${sizeName(size)}-seed${seed}.eval`);
  const t0 = Date.now();
  const r = generateEval({ size, seed, out, epochs });
  console.log(`${r.out}: ${(r.bytes / 1e6).toFixed(1)} MB, ${r.samples} samples, ${(r.inflated / 1e6).toFixed(0)} MB inflated (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
