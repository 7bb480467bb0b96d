// The claude-code benchmark generator: a Claude Code session log, one record
// per line, as Claude Code 2.1 writes it: each API response split over
// consecutive `assistant` records sharing `message.id` and `requestId`
// (thinking, text, then each tool_use, usage repeated on each), one `user`
// record per tool_result, hook `progress` records between them, all chained
// by `parentUuid`. scripts/bench/gen.mjs loads it by file name; `records(r, s)`
// gives the records one session `s` (scripts/bench/synthetic.mjs) yields,
// drawing from the seeded random source `r`.

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl'];

export function records(r, s) {
  const sessionId = s.id;
  const out = [];
  let parent = null;
  const rec = (type, at, fields) => {
    const uuid = r.uuid();
    out.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/workspace', sessionId, version: '2.1.39', gitBranch: 'main', type, ...fields, uuid, timestamp: at });
    parent = uuid;
    return uuid;
  };
  let system = '';
  for (const t of s.turns) {
    if (t.kind === 'system') system = t.text;
    else if (t.kind === 'user') rec('user', t.at, { message: { role: 'user', content: system ? `${system}\n\n${t.text}` : t.text } });
    else if (t.kind === 'assistant') {
      const id = `msg_${r.id(24)}`;
      const requestId = `req_${r.id(24)}`;
      const usage = { input_tokens: r.int(1, 50), cache_creation_input_tokens: r.int(0, 4000), cache_read_input_tokens: r.int(100, 80000), output_tokens: r.int(10, 800), service_tier: 'standard' };
      const blocks = [];
      if (t.reasoning) blocks.push({ type: 'thinking', thinking: t.reasoning, signature: r.id(40) });
      if (t.text) blocks.push({ type: 'text', text: t.text });
      for (const c of t.calls) blocks.push({ type: 'tool_use', id: `toolu_${c.id.slice(5)}`, name: c.tool, input: c.args });
      if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
      for (const b of blocks) rec('assistant', t.at, { message: { model: 'claude-sonnet-4-5-20250929', id, type: 'message', role: 'assistant', content: [b], stop_reason: null, stop_sequence: null, usage }, requestId });
      if (t.calls.length && r.chance(0.5)) rec('progress', t.at, { data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Edit', command: 'fmt' }, parentToolUseID: `toolu_${t.calls[0].id.slice(5)}`, toolUseID: `toolu_${t.calls[0].id.slice(5)}` });
    } else {
      const block = { tool_use_id: `toolu_${t.call.id.slice(5)}`, type: 'tool_result', content: t.text };
      if (t.error) block.is_error = true;
      rec('user', t.at, { message: { role: 'user', content: [block] }, toolUseResult: { stdout: t.text.slice(0, 200), stderr: '', interrupted: false } });
    }
  }
  return out;
}
