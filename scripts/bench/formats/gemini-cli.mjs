// The gemini-cli benchmark generator: one Gemini CLI session file (JSONL) per
// session, written the way gemini-cli-core 0.61.0's ChatRecordingService
// appends it: the metadata line, each message, a `$set` of `lastUpdated`
// after each, and a model turn with tool calls appended again (same `id`)
// once its calls have their results, followed by the user turn that sends
// the `functionResponse`s back. scripts/bench/gen.mjs loads it by file
// name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random
// source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl'];

const MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash'];

export function records(r, s) {
  const model = r.pick(MODELS);
  const out = [{ sessionId: s.id, projectHash: 'f'.repeat(64), startTime: s.turns[0].at, lastUpdated: s.turns[0].at, kind: 'main' }];
  const set = (at) => out.push({ $set: { lastUpdated: at } });
  let n = 0;
  const id = () => `${s.id.slice(0, 8)}-${String(n++).padStart(8, '0')}`;
  // The model turn whose calls wait for their results.
  let open = null;
  const close = () => {
    if (!open) return;
    out.push(open.message);
    out.push({ id: id(), timestamp: open.last, type: 'user', content: open.message.toolCalls.map((c) => c.result[0]) });
    set(open.last);
    open = null;
  };
  for (const t of s.turns) {
    switch (t.kind) {
      case 'system':
        out.push({ id: id(), timestamp: t.at, type: 'info', content: t.text });
        set(t.at);
        break;
      case 'user':
        close();
        out.push({ id: id(), timestamp: t.at, type: 'user', content: [{ text: t.text }] });
        set(t.at);
        break;
      case 'assistant': {
        close();
        const input = r.int(100, 8000);
        const output = r.int(10, 800);
        const thoughts = t.reasoning ? r.int(10, 300) : 0;
        const message = {
          id: id(),
          timestamp: t.at,
          type: 'gemini',
          content: t.text ?? '',
          thoughts: t.reasoning ? [{ subject: 'Thinking', description: t.reasoning, timestamp: t.at }] : [],
          tokens: { input, output, cached: r.int(0, input), thoughts, tool: 0, total: input + output + thoughts },
          model,
        };
        out.push(message);
        set(t.at);
        if (t.calls.length) open = { message: { ...message, toolCalls: [] }, last: t.at, waiting: t.calls.length };
        break;
      }
      default: {
        const c = t.call;
        const result = [{ functionResponse: { id: c.id, name: c.tool, response: t.error ? { error: t.text } : { output: t.text } } }];
        const call = { id: c.id, name: c.tool, args: c.args, result, status: t.error ? 'error' : 'success', timestamp: t.at, displayName: c.tool, description: '', renderOutputAsMarkdown: false };
        if (open) {
          open.message.toolCalls.push(call);
          open.last = t.at;
          if (--open.waiting === 0) close();
        }
      }
    }
  }
  close();
  return out;
}
