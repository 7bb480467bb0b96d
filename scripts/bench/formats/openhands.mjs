// The openhands benchmark generator: one evaluation output line per session:
// its `history` of SDK events (messages, terminal actions and their
// observations). scripts/bench/gen.mjs loads it by file name; `records(r, s)`
// gives the records one session `s` (scripts/bench/synthetic.mjs) yields,
// drawing from the seeded random source `r`.

import { cut } from '../synthetic.mjs';

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl'];

function openhandsInstance(r, s) {
  const history = [];
  const ev = (at, source, fields) => history.push({ id: r.uuid(), timestamp: at.replace('Z', ''), source, parent_id: null, ...fields });
  const text = (t) => ({ cache_prompt: false, type: 'text', text: t });
  const actionIds = new Map();
  for (const t of s.turns) {
    if (t.kind === 'system') {
      ev(t.at, 'agent', { system_prompt: text(t.text), tools: [], dynamic_context: null, kind: 'SystemPromptEvent' });
    } else if (t.kind === 'user' || (t.kind === 'assistant' && !t.calls.length)) {
      ev(t.at, t.kind === 'user' ? 'user' : 'agent', {
        llm_message: { role: t.kind, content: [text(t.text ?? '')], tool_calls: null, tool_call_id: null, name: null, reasoning_content: null, thinking_blocks: [], responses_reasoning_item: null },
        llm_response_id: null, activated_skills: [], extended_content: [], sender: null, critic_result: null, kind: 'MessageEvent',
      });
    } else if (t.kind === 'assistant') {
      const resp = `resp-${r.id(12)}`;
      t.calls.forEach((c, i) => {
        const command = c.args.code ?? `grep -rn "${cut(c.args.query, 40).replace(/"/g, '')}" /workspace`;
        ev(t.at, 'agent', {
          thought: i === 0 && t.text ? [text(t.text)] : [], reasoning_content: i === 0 ? t.reasoning : null, thinking_blocks: [], responses_reasoning_item: null,
          action: { command, is_input: false, timeout: null, reset: false, kind: 'TerminalAction' },
          tool_name: 'terminal', tool_call_id: c.id,
          tool_call: { id: c.id, responses_item_id: null, name: 'terminal', arguments: JSON.stringify({ command, security_risk: 'LOW' }), origin: 'completion' },
          llm_response_id: resp, security_risk: 'LOW', critic_result: null, summary: null, kind: 'ActionEvent',
        });
        actionIds.set(c.id, { id: history[history.length - 1].id, command });
      });
    } else {
      const a = actionIds.get(t.call.id);
      ev(t.at, 'environment', {
        tool_name: 'terminal', tool_call_id: t.call.id,
        observation: { content: [text(t.text)], is_error: t.error, command: a.command, exit_code: t.error ? 1 : 0, timeout: false, metadata: { exit_code: t.error ? 1 : 0, pid: -1, username: null, hostname: null, working_dir: '/workspace', py_interpreter_path: null, prefix: '', suffix: '' }, full_output_save_dir: null, kind: 'TerminalObservation' },
        action_id: a.id, extended_content: [], kind: 'ObservationEvent',
      });
    }
  }
  return { instance_id: `synthetic-${s.index}`, test_result: { score: r.int(0, 1) }, instruction: cut(s.turns[1].text, 500), metadata: { model: s.model, max_iterations: 100 }, history, error: null };
}

export function records(r, s) {
  return [openhandsInstance(r, s)];
}
