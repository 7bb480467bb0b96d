// The langfuse benchmark generator: one UI trace export per session
// (`{trace, observations}`, the trace's `metadata` a JSON string, as the
// Langfuse UI's "download trace" writes it): an AGENT observation, a
// GENERATION per assistant turn whose input re-sends the whole OpenAI chat
// history (as the Langfuse OpenAI integration records it), a TOOL
// observation per tool call. scripts/bench/gen.mjs loads it by file name;
// `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

const hex = (r, n) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');

function observation(traceId, id, type, name, parent, from, to, extra) {
  return {
    id, traceId, projectId: 'bench', type, environment: 'default', parentObservationId: parent, startTime: from, endTime: to, name,
    metadata: {}, level: 'DEFAULT', statusMessage: null, version: null, modelParameters: null, completionStartTime: null,
    promptId: null, usageDetails: {}, costDetails: {}, model: null, input: null, output: null, ...extra,
  };
}

function langfuseExport(r, s) {
  const traceId = hex(r, 32);
  const rootId = hex(r, 16);
  const first = s.turns[0].at, last = s.turns[s.turns.length - 1].at;
  const observations = [observation(traceId, rootId, 'AGENT', `agent-${s.index % 17}`, null, first, last, {})];
  const history = [];
  let prev = first;
  for (const t of s.turns) {
    if (t.kind === 'system') history.push({ role: 'system', content: t.text });
    else if (t.kind === 'user') history.push({ role: 'user', content: t.text });
    else if (t.kind === 'assistant') {
      const out = { role: 'assistant', content: t.text ?? '' };
      if (t.calls.length) {
        out.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.tool, arguments: c.asString ? JSON.stringify(c.args) : c.args } }));
      }
      const input = r.int(100, 8000), output = r.int(10, 800);
      observations.push(observation(traceId, hex(r, 16), 'GENERATION', `chat ${s.model}`, rootId, prev, t.at, {
        model: s.model, modelParameters: { temperature: 0 }, input: [...history], output: out,
        usageDetails: { input, output, total: input + output }, costDetails: { total: (input + output) * 1e-6 },
      }));
      history.push(out);
    } else {
      const c = t.call;
      history.push({ role: 'tool', tool_call_id: c.id, content: t.text });
      observations.push(observation(traceId, hex(r, 16), 'TOOL', c.tool, rootId, prev, t.at, {
        input: c.args, output: t.text, metadata: { attributes: { 'gen_ai.tool.call.id': c.id } },
        ...(t.error ? { level: 'ERROR', statusMessage: 'tool failed' } : {}),
      }));
    }
    prev = t.at;
  }
  const trace = {
    id: traceId, projectId: 'bench', name: 'bench-agent', timestamp: first, environment: 'default', tags: ['bench'], bookmarked: false,
    release: null, version: null, userId: null, sessionId: s.id, public: false, input: null, output: null,
    metadata: JSON.stringify({ session: s.id }), createdAt: last, updatedAt: last, scores: [], latency: 0,
  };
  return { trace, observations };
}

export function records(r, s) {
  return [langfuseExport(r, s)];
}
