// The otel benchmark generator: one OTLP export request per session (as the
// Collector's file exporter writes one per line): an invoke_agent span, a
// chat span per assistant turn whose `gen_ai.input.messages` re-sends the
// whole history (as GenAI instrumentations do), an execute_tool span per
// tool call. scripts/bench/gen.mjs loads it by file name; `records(r, s)`
// gives the records one session `s` (scripts/bench/synthetic.mjs) yields,
// drawing from the seeded random source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

const hex = (r, n) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
const nanos = (iso) => String(BigInt(Date.parse(iso)) * 1000000n);
const str = (v) => ({ stringValue: v });
const int = (v) => ({ intValue: String(v) });

function otelRequest(r, s) {
  const traceId = hex(r, 32);
  const rootId = hex(r, 16);
  const spans = [];
  const history = [];
  const first = s.turns[0].at, last = s.turns[s.turns.length - 1].at;
  const span = (name, parent, from, to, attributes, extra = {}) => {
    const id = hex(r, 16);
    spans.push({ traceId, spanId: id, parentSpanId: parent, name, kind: name.startsWith('chat') ? 3 : 1,
      startTimeUnixNano: nanos(from), endTimeUnixNano: String(BigInt(nanos(to)) + BigInt(r.int(1, 900)) * 1000000n), attributes, ...extra });
    return id;
  };
  span('invoke_agent agent', '', first, last, [{ key: 'gen_ai.operation.name', value: str('invoke_agent') }, { key: 'gen_ai.agent.name', value: str(`agent-${s.index % 17}`) }]);
  let system = null;
  let prev = first;
  for (const t of s.turns) {
    if (t.kind === 'system') system = [{ type: 'text', content: t.text }];
    else if (t.kind === 'user') history.push({ role: 'user', parts: [{ type: 'text', content: t.text }] });
    else if (t.kind === 'assistant') {
      const parts = [];
      if (t.reasoning) parts.push({ type: 'reasoning', content: t.reasoning });
      if (t.text) parts.push({ type: 'text', content: t.text });
      for (const c of t.calls) parts.push({ type: 'tool_call', id: c.id, name: c.tool, arguments: c.args });
      const out = { role: 'assistant', parts, finish_reason: t.calls.length ? 'tool_call' : 'stop' };
      const attributes = [
        { key: 'gen_ai.operation.name', value: str('chat') },
        { key: 'gen_ai.provider.name', value: str(s.model.startsWith('claude') ? 'anthropic' : 'openai') },
        { key: 'gen_ai.request.model', value: str(s.model) },
        { key: 'gen_ai.usage.input_tokens', value: int(r.int(100, 8000)) },
        { key: 'gen_ai.usage.output_tokens', value: int(r.int(10, 800)) },
        { key: 'gen_ai.input.messages', value: str(JSON.stringify(history)) },
        { key: 'gen_ai.output.messages', value: str(JSON.stringify([out])) },
      ];
      if (system) attributes.push({ key: 'gen_ai.system_instructions', value: str(JSON.stringify(system)) });
      span(`chat ${s.model}`, rootId, prev, t.at, attributes);
      history.push(out);
    } else {
      const c = t.call;
      history.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: c.id, response: t.text }] });
      span(`execute_tool ${c.tool}`, rootId, prev, t.at, [
        { key: 'gen_ai.operation.name', value: str('execute_tool') },
        { key: 'gen_ai.tool.name', value: str(c.tool) },
        { key: 'gen_ai.tool.call.id', value: str(c.id) },
        { key: 'gen_ai.tool.call.arguments', value: str(JSON.stringify(c.args)) },
        { key: 'gen_ai.tool.call.result', value: str(t.text) },
      ], t.error ? { status: { code: 2, message: 'tool failed' } } : {});
    }
    prev = t.at;
  }
  spans[0].spanId = rootId;
  return {
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: str('bench-agent') }, { key: 'session.id', value: str(s.id) }] },
      scopeSpans: [{ scope: { name: 'bench.instrumentation', version: '1.0.0' }, spans }],
    }],
  };
}

export function records(r, s) {
  return [otelRequest(r, s)];
}
