// The langsmith benchmark generator: one run per line (a run list as the
// LangSmith SDKs post them, `post` payloads flattened): a chain run per
// session, an `llm` run per assistant turn whose inputs re-send the whole
// OpenAI chat history (as `wrap_openai` records it) and whose outputs are
// the chat completion with its usage, a `tool` run per tool call.
// scripts/bench/gen.mjs loads it by file name; `records(r, s)` gives the
// records one session `s` (scripts/bench/synthetic.mjs) yields, drawing
// from the seeded source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

const dottedTime = (iso) => iso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z');

export function records(r, s) {
  const traceId = r.uuid();
  const first = s.turns[0].at, last = s.turns[s.turns.length - 1].at;
  const rootDotted = `${dottedTime(first)}${traceId}`;
  const out = [{
    id: traceId, name: 'agent', run_type: 'chain', trace_id: traceId, dotted_order: rootDotted, start_time: first, end_time: last,
    inputs: { session: s.id }, outputs: {}, extra: { metadata: { ls_run_depth: 0 } }, tags: ['bench'], session_name: 'bench',
  }];
  const history = [];
  let prev = first;
  const child = (name, runType, from, to, fields) => {
    const id = r.uuid();
    out.push({ id, name, run_type: runType, trace_id: traceId, parent_run_id: traceId, dotted_order: `${rootDotted}.${dottedTime(from)}${id}`,
      start_time: from, end_time: to, ...fields });
  };
  for (const t of s.turns) {
    if (t.kind === 'system') history.push({ role: 'system', content: t.text });
    else if (t.kind === 'user') history.push({ role: 'user', content: t.text });
    else if (t.kind === 'assistant') {
      const message = { role: 'assistant', content: t.text ?? null };
      if (t.calls.length) {
        message.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.tool, arguments: JSON.stringify(c.args) } }));
      }
      const prompt = r.int(100, 8000), completion = r.int(10, 800);
      child('ChatOpenAI', 'llm', prev, t.at, {
        inputs: { model: s.model, messages: [...history] },
        outputs: { model: s.model, choices: [{ index: 0, message, finish_reason: t.calls.length ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } },
        extra: { metadata: { ls_provider: 'openai', ls_model_name: s.model } },
      });
      history.push(message);
    } else {
      const c = t.call;
      history.push({ role: 'tool', tool_call_id: c.id, content: t.text });
      child(c.tool, 'tool', prev, t.at, {
        inputs: { ...c.args, tool_call_id: c.id }, outputs: t.error ? null : { output: t.text },
        ...(t.error ? { error: 'ToolException: tool failed' } : {}),
      });
    }
    prev = t.at;
  }
  return out;
}
