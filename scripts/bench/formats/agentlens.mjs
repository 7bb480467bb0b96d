// The agentlens benchmark generator: one session per record: llm calls with
// token counts, decisions, tool calls and tool errors. scripts/bench/gen.mjs
// loads it by file name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source
// `r`.

import { words, cut, isoTime } from '../synthetic.mjs';

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

function agentlensSession(r, s) {
  const events = [];
  const session_id = s.id;
  let tin = 0, tout = 0;
  let prompt = null;
  for (const t of s.turns) {
    const base = { event_id: r.uuid(), session_id, timestamp: t.at };
    if (t.kind === 'system' || t.kind === 'user') {
      prompt = (prompt ? prompt + '\n\n' : '') + t.text;
    } else if (t.kind === 'assistant') {
      const tokens_in = r.int(100, 8000), tokens_out = r.int(10, 800);
      tin += tokens_in; tout += tokens_out;
      events.push({ ...base, event_type: 'llm_call', input_data: { prompt: prompt ?? '' }, output_data: { response: t.text ?? '', tool_calls: t.calls.map((c) => c.tool) }, model: s.model, tokens_in, tokens_out, duration_ms: r.int(100, 9000) + 0.5 });
      prompt = null;
      if (t.reasoning) events.push({ ...base, event_id: r.uuid(), event_type: 'decision', decision_trace: { trace_id: r.uuid(), step: events.length, reasoning: t.reasoning, alternatives_considered: [words(r, 4), words(r, 5)], confidence: Math.round(r.next() * 100) / 100, timestamp: t.at } });
    } else {
      const c = t.call;
      events.push({ ...base, event_type: t.error ? 'tool_error' : 'tool_call', tool_call: { tool_call_id: c.id, tool_name: c.tool, tool_input: c.args, tool_output: t.error ? null : { result: t.text }, timestamp: t.at, duration_ms: r.int(1, 5000) + 0.25 }, ...(t.error ? { output_data: { error: cut(t.text, 2000) } } : {}) });
    }
  }
  return { session_id, agent_name: `agent-${s.index % 17}`, started_at: isoTime(s.start, 0), ended_at: s.turns[s.turns.length - 1].at, metadata: { model: s.model, task: `task-${s.index}` }, events, total_tokens_in: tin, total_tokens_out: tout, status: 'completed' };
}

export function records(r, s) {
  return [agentlensSession(r, s)];
}
