// www/viewer/sources.js outside the browser: dropped files gathered into
// one source per trace, as the core's groupFiles (the worker's op) groups
// them; everything else left as it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupFiles } from 'agent-trace-viewer';
import { groupSources } from '../../www/viewer/sources.js';

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
