// The whole viewer in an app, two ways, each loading a trace from bytes.
import 'agent-trace-viewer/element'; // defines <agent-trace-viewer>
import { mountViewer } from 'agent-trace-viewer/viewer';

const TRACE = new TextEncoder().encode(
  JSON.stringify([
    { role: 'user', content: 'What is 2+2?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"expr": "2+2"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '4' },
    { role: 'assistant', content: 'It is 4.' },
  ]),
);

// 1. The custom element (in its own shadow root): one line.
const tag = document.getElementById('tag');
const fromTag = tag.load(TRACE);

// 2. mountViewer in any element: one line, and a handle to drive it.
const viewer = mountViewer(document.getElementById('mounted'));
const fromMount = viewer.load({ name: 'calc.json', bytes: TRACE });

for (const el of [tag, viewer.element]) {
  el.addEventListener('atv-select', (e) => {
    document.getElementById('selected').value = `#${e.detail.index} ${e.detail.summary} (${el.id})`;
  });
}

const [a, b] = await Promise.all([fromTag, fromMount]);
document.getElementById('status').textContent = `Loaded ${a.eventCount} and ${b.eventCount} events`;
