// The codex benchmark generator: one Codex CLI rollout per session, a line per
// record: session_meta, turn_context, response items (messages, reasoning,
// function calls with JSON-string arguments, outputs) and event_msg lines
// (user/agent message mirrors, token counts). scripts/bench/gen.mjs loads it
// by file name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source
// `r`.

import { isoTime } from '../synthetic.mjs';

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl'];

const line = (timestamp, type, payload) => ({ timestamp, type, payload });

export function records(r, s) {
  const start = isoTime(s.start, 0);
  const out = [
    line(start, 'session_meta', { id: s.id, timestamp: start, cwd: `/work/task-${s.index}`, originator: 'codex_cli_rs', cli_version: '0.46.0', instructions: null, source: 'cli', model_provider: 'openai' }),
    line(start, 'turn_context', { cwd: `/work/task-${s.index}`, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: s.model, effort: 'medium', summary: 'auto' }),
  ];
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  for (const t of s.turns) {
    switch (t.kind) {
      case 'system':
        out.push(line(t.at, 'response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: t.text }] }));
        break;
      case 'user':
        out.push(line(t.at, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: t.text }] }));
        out.push(line(t.at, 'event_msg', { type: 'user_message', message: t.text, images: [] }));
        break;
      case 'assistant': {
        if (t.reasoning) {
          out.push(line(t.at, 'event_msg', { type: 'agent_reasoning', text: t.reasoning }));
          out.push(line(t.at, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: t.reasoning }], content: null, encrypted_content: null }));
        }
        if (t.text) {
          out.push(line(t.at, 'event_msg', { type: 'agent_message', message: t.text }));
          out.push(line(t.at, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.text }] }));
        }
        for (const c of t.calls) {
          out.push(line(t.at, 'response_item', { type: 'function_call', name: c.tool, arguments: JSON.stringify(c.args), call_id: c.id }));
        }
        const last = { input_tokens: r.int(100, 8000), cached_input_tokens: 0, output_tokens: r.int(10, 800), reasoning_output_tokens: t.reasoning ? r.int(0, 300) : 0, total_tokens: 0 };
        last.cached_input_tokens = r.int(0, last.input_tokens);
        last.total_tokens = last.input_tokens + last.output_tokens;
        for (const k of Object.keys(total)) total[k] += last[k];
        out.push(line(t.at, 'event_msg', { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272000 }, rate_limits: null }));
        break;
      }
      default: {
        const output = JSON.stringify({ output: t.text, metadata: { exit_code: t.error ? 1 : 0, duration_seconds: r.int(1, 5000) / 1000 } });
        out.push(line(t.at, 'response_item', { type: 'function_call_output', call_id: t.call.id, output }));
      }
    }
  }
  out.push(line(s.turns[s.turns.length - 1].at, 'event_msg', { type: 'task_complete', last_agent_message: null }));
  return out;
}
