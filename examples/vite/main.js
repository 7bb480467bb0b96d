// A minimal app that bundles the npm package with Vite: the .wasm is emitted
// as an asset and fetched by init().
import init, { parseTrace } from 'agent-trace-viewer';

const SAMPLE = JSON.stringify([
  { role: 'user', content: 'What is 2+2?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"expr": "2+2"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: '4' },
]);

function show(bytes) {
  const trace = parseTrace(bytes);
  const stats = trace.stats();
  document.getElementById('summary').textContent = `${trace.format}: ${stats.events} events, ${stats.toolCalls} tool calls, ${stats.linkedResults} linked`;
  const list = document.getElementById('events');
  list.replaceChildren(...trace.events(0, 100).map((e) => {
    const li = document.createElement('li');
    li.textContent = `${e.role ?? e.kind}: ${e.summary}`;
    return li;
  }));
  trace.free();
}

await init();
show(new TextEncoder().encode(SAMPLE));
document.getElementById('file').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  if (file) show(new Uint8Array(await file.arrayBuffer()));
});
