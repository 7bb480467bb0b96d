// The docent benchmark generator: one AgentRun per session, one transcript,
// reasoning blocks and tool errors. scripts/bench/gen.mjs loads it by file
// name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source
// `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

function docentRun(r, s) {
  const messages = s.turns.map((t) => {
    switch (t.kind) {
      case 'system':
      case 'user': return { role: t.kind, content: t.text };
      case 'assistant': {
        const m = { role: 'assistant', content: t.reasoning ? [{ type: 'reasoning', reasoning: t.reasoning }, { type: 'text', text: t.text ?? '' }] : (t.text ?? '') };
        if (t.calls.length) m.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: c.tool, arguments: c.args }));
        return m;
      }
      default: return { role: 'tool', content: t.text, tool_call_id: t.call.id, function: t.call.tool, ...(t.error ? { error: { type: 'unknown', message: 'tool failed' } } : {}) };
    }
  });
  return {
    id: s.id, name: `synthetic run ${s.index}`, description: null,
    transcripts: [{ id: `t-${s.index}`, name: 'main', messages, metadata: { model: s.model } }],
    metadata: { scores: { success: r.chance(0.5), reward: Math.round(r.next() * 100) / 100 }, task: `task-${s.index}`, model: s.model },
  };
}

export function records(r, s) {
  return [docentRun(r, s)];
}
