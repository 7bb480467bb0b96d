// The inspect benchmark generator: one Inspect sample per session, as
// inspect_ai 0.3.285 writes them (messages with tool calls and the tool
// messages answering them, the sample's events: spans, model calls with
// their output and usage, tool calls with their results, a score), in a JSON
// list of samples (the core reads each item as a `.eval` sample file).
// scripts/bench/gen.mjs loads it by file name; `records(r, s)` gives the
// records one session `s` (scripts/bench/synthetic.mjs) yields, drawing from
// the seeded random source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['json'];

function content(t) {
  return t.reasoning ? [{ type: 'reasoning', reasoning: t.reasoning, redacted: false }, { type: 'text', text: t.text ?? '' }] : (t.text ?? '');
}

function sample(r, s) {
  const messages = [];
  const events = [{ event: 'span_begin', id: 'init', name: 'init', type: 'init', timestamp: s.turns[0].at }, { event: 'span_end', id: 'init', timestamp: s.turns[0].at }];
  events.push({ event: 'span_begin', id: 'solvers', name: 'solvers', type: 'solvers', timestamp: s.turns[0].at });
  let input = 0;
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  for (const t of s.turns) {
    if (t.kind === 'system' || t.kind === 'user') messages.push({ id: r.id(22), role: t.kind, content: t.text, source: 'input' });
    else if (t.kind === 'assistant') {
      const tool_calls = t.calls.map((c) => ({ id: c.id, function: c.tool, arguments: c.args, type: 'function' }));
      const m = { id: r.id(22), role: 'assistant', content: content(t), source: 'generate', tool_calls: tool_calls.length ? tool_calls : undefined, model: s.model };
      messages.push(m);
      const u = { input_tokens: (input += r.int(200, 4000)), output_tokens: r.int(10, 800), total_tokens: 0 };
      u.total_tokens = u.input_tokens + u.output_tokens;
      for (const k of Object.keys(usage)) usage[k] += u[k];
      events.push({ event: 'model', span_id: 'solvers', timestamp: t.at, model: s.model, input: [], tools: [], tool_choice: 'auto', config: {}, output: { model: s.model, choices: [{ message: m, stop_reason: tool_calls.length ? 'tool_calls' : 'stop' }], usage: u, time: r.int(1, 30) / 10 }, working_time: r.int(1, 30) / 10 });
    } else {
      const error = t.error ? { type: 'unknown', message: 'command failed' } : undefined;
      messages.push({ id: r.id(22), role: 'tool', content: t.text, tool_call_id: t.call.id, function: t.call.tool, error });
      events.push({ event: 'tool', span_id: 'solvers', timestamp: t.at, type: 'function', id: t.call.id, function: t.call.tool, arguments: t.call.args, result: t.text, error, working_time: r.int(1, 50) / 10 });
    }
  }
  const last = s.turns[s.turns.length - 1].at;
  events.push({ event: 'span_end', id: 'solvers', timestamp: last });
  const value = r.chance(0.5) ? 'C' : 'I';
  events.push({ event: 'score', timestamp: last, score: { value, answer: 'x', explanation: 'compared with the target' }, intermediate: false });
  return {
    id: s.index + 1, epoch: 1, input: s.turns[1].text, target: 'x', messages,
    output: { model: s.model, choices: [{ message: messages[messages.length - 1], stop_reason: 'stop' }], usage },
    scores: { match: { value, answer: 'x', explanation: 'compared with the target' } },
    metadata: { session: s.id }, store: {}, events, model_usage: { [s.model]: usage },
    total_time: 60, working_time: 55, uuid: s.id,
  };
}

export function records(r, s) {
  return [sample(r, s)];
}
