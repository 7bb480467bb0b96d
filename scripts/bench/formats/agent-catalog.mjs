// The agent-catalog benchmark generator: one log record per turn, between a
// begin and an end span record. scripts/bench/gen.mjs loads it by file name;
// `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source
// `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl', 'json'];

export function records(r, s) {
  const session = s.id;
  const version = { timestamp: '2025-07-04T11:20:31.313387Z', identifier: '502f8f9', is_dirty: false, version_system: 'git' };
  const root = [`Agent ${s.index % 5}`];
  const out = [];
  const rec = (at, name, content) => out.push({ identifier: r.uuid(), span: { session, name }, timestamp: at.replace('Z', '+05:30'), content, annotations: { agent_name: root[0] }, catalog_version: version });
  rec(s.turns[0].at, root, { kind: 'begin', state: { task: `task-${s.index}` } });
  for (const t of s.turns) {
    const name = [...root, 'step'];
    if (t.kind === 'system' || t.kind === 'user') rec(t.at, name, { kind: t.kind, value: t.text });
    else if (t.kind === 'assistant') {
      rec(t.at, name, { kind: 'chat-completion', output: t.text ?? '', meta: { model: s.model, usage: { prompt_tokens: r.int(100, 8000), completion_tokens: r.int(10, 800) } } });
      for (const c of t.calls) rec(t.at, name, { kind: 'tool-call', tool_name: c.tool, tool_args: c.args, tool_call_id: c.id, tool_result: null, status: 'success' });
    } else rec(t.at, name, { kind: 'tool-result', tool_call_id: t.call.id, tool_result: t.text, status: t.error ? 'error' : 'success' });
  }
  rec(s.turns[s.turns.length - 1].at, root, { kind: 'end' });
  return out;
}
