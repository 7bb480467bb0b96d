// The openai benchmark generator: one row per session: `{messages, metadata}`,
// tool calls with arguments as objects or JSON strings. scripts/bench/gen.mjs
// loads it by file name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source
// `r`.

import { isoTime } from '../synthetic.mjs';

/** The layouts it is written in; the first is the default. */
export const layouts = ['json', 'jsonl'];

function openaiRow(r, s) {
  const stamp = r.chance(0.5);
  const messages = s.turns.map((t) => {
    const at = stamp ? { timestamp: t.at } : {};
    switch (t.kind) {
      case 'system': return { role: 'system', content: t.text, ...at };
      case 'user': return { role: 'user', content: r.chance(0.3) ? [{ type: 'text', text: t.text }] : t.text, ...at };
      case 'assistant': {
        const m = { role: 'assistant', content: t.text, ...at };
        if (t.calls.length) {
          m.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.tool, arguments: c.asString ? JSON.stringify(c.args) : c.args } }));
        }
        return m;
      }
      default: return { role: 'tool', tool_call_id: t.call.id, content: t.text, ...(t.error ? { error: 'tool failed' } : {}), ...at };
    }
  });
  return { messages, metadata: { id: s.id, model: s.model, created_at: isoTime(s.start, 0), task: `task-${s.index}`, tags: ['synthetic', s.model], score: Math.round(r.next() * 100) / 100 } };
}

export function records(r, s) {
  return [openaiRow(r, s)];
}
