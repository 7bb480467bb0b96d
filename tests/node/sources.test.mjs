// www/viewer/sources.js outside the browser: dropped files gathered into
// one source per trace, as the core's groupFiles (the worker's op) groups
// them; everything else left as it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupFiles, groupHeadsWanted } from 'agent-trace-viewer';
import { groupSources, RUN_FILES_MIN } from '../../www/viewer/sources.js';

const file = (path) => ({ name: path.split('/').pop(), path, file: new File(['{}'], path.split('/').pop()) });

test('groupSources: each group of files is one source named by the core, in the place of its first file', async () => {
  const sources = [
    file('drop/notes.json'),
    file('drop/run-1/events/event-00000-a.json'),
    { name: 'sample.json', path: 'samples/sample.json', url: 'https://example.invalid/sample.json' },
    file('drop/run-2/events/event-00000-c.json'),
    file('drop/run-1/events/event-00001-b.json'),
    file('drop/run-2/events/event-00001-d.json'),
    file('drop/lone/event-00000-e.json'),
  ];
  const asked = [];
  const out = await groupSources(sources, async (paths) => {
    asked.push(paths);
    return groupFiles(paths);
  });
  // Only files are grouped: the URL is not handed to the core.
  assert.deepEqual(asked, [sources.filter((s) => s.file).map((s) => s.path)]);
  assert.deepEqual(
    out.map((s) => [s.name, s.path, s.parts?.map((p) => p.path) ?? null]),
    [
      ['notes.json', 'drop/notes.json', null],
      ['events (2 event files)', 'drop/run-1/events (2 event files)', ['drop/run-1/events/event-00000-a.json', 'drop/run-1/events/event-00001-b.json']],
      ['sample.json', 'samples/sample.json', null],
      ['events (2 event files)', 'drop/run-2/events (2 event files)', ['drop/run-2/events/event-00000-c.json', 'drop/run-2/events/event-00001-d.json']],
      // A group of one is the file itself.
      ['event-00000-e.json', 'drop/lone/event-00000-e.json', null],
    ],
  );
  assert.equal(out[0], sources[0], 'a file on its own is the same source');
  assert.equal(out[2], sources[2]);
});

test('groupSources: files picked without folders (flattened names) group by the name the core gives', async () => {
  const sources = ['conv__events__event-00000-a.json', 'conv__events__event-00001-b.json'].map(file);
  const out = await groupSources(sources, async (paths) => groupFiles(paths));
  assert.deepEqual(out.map((s) => [s.name, s.path, s.parts.length]), [['conv__events (2 event files)', 'conv__events (2 event files)', 2]]);
});

test('groupSources: fewer than two files are not worth asking the core about', async () => {
  const never = async () => assert.fail('groupFiles called');
  const one = [file('a/event-00000-x.json'), { name: 'pasted text', path: 'pasted text', text: '[]' }];
  assert.deepEqual(await groupSources(one, never), one);
  assert.deepEqual(await groupSources([], never), []);
});

// An older Claude Code project folder: two sessions and sub-agent files
// `agent-<id>.jsonl` beside them, whose records name their session.
const A = '11111111-2222-4333-8444-555555555555';
const B = '66666666-7777-4888-8999-aaaaaaaaaaaa';
const record = (sessionId, extra = {}) => `${JSON.stringify({ parentUuid: null, isSidechain: true, sessionId, agentId: 'x', type: 'user', message: { role: 'user', content: 'go' }, ...extra })}\n`;
const older = {
  [`proj/${A}.jsonl`]: record(A, { isSidechain: false }),
  'proj/agent-b1.jsonl': record(B),
  [`proj/${B}.jsonl`]: record(B, { isSidechain: false }),
  'proj/agent-a1.jsonl': record(A),
  'proj/agent-gone.jsonl': record('99999999-7777-4888-8999-aaaaaaaaaaaa'),
  'proj/agent-garbage.jsonl': '\u0000 not a record',
  'proj/notes.json': '{}',
};

test('groupFiles(paths, heads): an older agent file joins the session its first record names; without heads each is alone', () => {
  const paths = Object.keys(older);
  const wanted = groupHeadsWanted(paths);
  assert.deepEqual(wanted, [1, 3, 4, 5], 'only the agent files');
  const enc = new TextEncoder();
  const heads = paths.map((p, i) => (wanted.includes(i) ? enc.encode(older[p]) : null));
  const byHeads = groupFiles(paths, heads).map((g) => [g.name, g.files]);
  assert.deepEqual(byHeads, [
    [`${A} (2 session files)`, [0, 3]],
    [`${B} (2 session files)`, [1, 2]],
    ['agent-gone.jsonl', [4]],
    ['agent-garbage.jsonl', [5]],
    ['notes.json', [6]],
  ]);
  // ArrayBuffers do as well as Uint8Arrays; a short or absent list leaves the paths to decide.
  assert.deepEqual(groupFiles(paths, heads.map((h) => h?.buffer ?? null)).map((g) => [g.name, g.files]), byHeads);
  const alone = paths.map((p) => [p.split('/').pop(), [paths.indexOf(p)]]);
  assert.deepEqual(groupFiles(paths).map((g) => [g.name, g.files]), alone);
  assert.deepEqual(groupFiles(paths, []).map((g) => [g.name, g.files]), alone);
});

test('groupSources with headsWanted: reads the first bytes of the wanted files only, and groups by them', async () => {
  // One agent's first record is longer than the head: it is sliced, and named by its cut start.
  const files = { ...older, 'proj/agent-a1.jsonl': record(A, { message: { role: 'user', content: 'x'.repeat(20_000) } }) };
  const sources = Object.entries(files).map(([path, text]) => ({ name: path.split('/').pop(), path, file: new File([text], path.split('/').pop()) }));
  const read = [];
  for (const s of sources) {
    const { file } = s;
    const slice = file.slice.bind(file);
    const whole = file.arrayBuffer.bind(file);
    file.slice = (...args) => (read.push([s.path, 'slice', ...args]), slice(...args));
    file.arrayBuffer = () => (read.push([s.path, 'whole']), whole());
  }
  const out = await groupSources(sources, async (paths, heads) => groupFiles(paths, heads), async (paths) => groupHeadsWanted(paths));
  assert.deepEqual(read.sort(), [
    ['proj/agent-a1.jsonl', 'slice', 0, 8192],
    ['proj/agent-b1.jsonl', 'whole'],
    ['proj/agent-garbage.jsonl', 'whole'],
    ['proj/agent-gone.jsonl', 'whole'],
  ], 'the wanted files only: their first 8 KB, a smaller file whole');
  assert.deepEqual(out.map((s) => [s.path, s.parts?.map((p) => p.path) ?? null]), [
    [`proj/${A} (2 session files)`, [`proj/${A}.jsonl`, 'proj/agent-a1.jsonl']],
    [`proj/${B} (2 session files)`, ['proj/agent-b1.jsonl', `proj/${B}.jsonl`]],
    ['proj/agent-gone.jsonl', null],
    ['proj/agent-garbage.jsonl', null],
    ['proj/notes.json', null],
  ]);
});

test('groupSources: more than RUN_FILES_MIN loose files are one source of runs, named by their folder; fewer stay files', async () => {
  const many = (n) => [
    ...Array.from({ length: n }, (_, i) => file(`evals/run-${String(i).padStart(4, '0')}.json`)),
    file('evals/conv/events/event-00000-a.json'),
    file('evals/conv/events/event-00001-b.json'),
    { name: 'pasted text', path: 'pasted text', text: '[]' },
  ];
  const group = async (paths) => groupFiles(paths);
  const below = many(RUN_FILES_MIN - 1);
  const kept = await groupSources(below, group);
  assert.equal(kept.filter((s) => s.file).length, RUN_FILES_MIN - 1, 'each file its own trace');
  assert.ok(kept.every((s) => !s.asRuns));

  const sources = many(RUN_FILES_MIN + 1);
  const out = await groupSources(sources, group);
  assert.deepEqual(out.map((s) => [s.name, s.path, s.parts?.length ?? null, s.asRuns ?? false]), [
    [`evals (${RUN_FILES_MIN + 1} run files)`, `evals (${RUN_FILES_MIN + 1} run files)`, RUN_FILES_MIN + 1, true],
    // A group a format makes stays its own trace; what is not a file stays as it was.
    ['events (2 event files)', 'evals/conv/events (2 event files)', 2, false],
    ['pasted text', 'pasted text', null, false],
  ]);
  assert.deepEqual(out[0].parts, sources.slice(0, RUN_FILES_MIN + 1), 'the files in their order');
  // Files of no shared folder are named by their count alone.
  const loose = await groupSources(Array.from({ length: RUN_FILES_MIN }, (_, i) => file(`r${i}.json`)), group);
  assert.deepEqual(loose.map((s) => [s.name, s.path]), [[`${RUN_FILES_MIN} run files`, `${RUN_FILES_MIN} run files`]]);
});
