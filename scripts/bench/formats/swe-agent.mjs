// The swe-agent benchmark generator: one SWE-agent 1.x `.traj` object per
// session, one per line (a JSON Lines file of trajectories): `history` with
// function calls and the tool messages answering them by `tool_call_ids`,
// `trajectory` steps with the long observations, `info` with `model_stats`
// and a submission patch, and `replay_config` as JSON text. scripts/bench/gen.mjs
// loads it by file name; `records(r, s)` gives the records one session `s`
// (scripts/bench/synthetic.mjs) yields, drawing from the seeded random source `r`.

import { cut } from '../synthetic.mjs';

/** The layouts it is written in; the first is the default. */
export const layouts = ['jsonl'];

function command(c) {
  return c.args.code ? `python - <<'EOF'\n${cut(c.args.code, 400)}\nEOF` : `grep -rn "${cut(c.args.query, 40).replace(/"/g, '')}" /testbed`;
}

function traj(r, s) {
  const history = [];
  const trajectory = [];
  const seconds = (a, b) => Math.max(0, (Date.parse(b) - Date.parse(a)) / 1000);
  let last = null;
  for (const t of s.turns) {
    const base = { agent: 'main' };
    if (t.kind === 'system') history.push({ role: 'system', content: t.text, ...base, message_type: 'system_prompt' });
    else if (t.kind === 'user') history.push({ role: 'user', content: t.text, ...base, message_type: 'observation' });
    else if (t.kind === 'assistant') {
      const calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.tool, arguments: JSON.stringify({ command: command(c) }) } }));
      const action = t.calls.length ? command(t.calls[0]) : 'submit';
      history.push({
        role: 'assistant', content: t.text ?? '', thought: t.text ?? '', action, ...base, message_type: 'action',
        tool_calls: calls.length ? calls : null, thinking_blocks: t.reasoning ? [{ type: 'thinking', thinking: t.reasoning, signature: r.id(16) }] : null,
      });
      last = { at: t.at, action, response: t.text ?? '', observations: [] };
      trajectory.push(last);
    } else {
      history.push({ role: 'tool', content: [{ type: 'text', text: t.text }], ...base, message_type: 'observation', tool_call_ids: [t.call.id] });
      if (last) last.observations.push({ text: t.text, at: t.at });
    }
  }
  const steps = trajectory.map((st, i) => ({
    action: st.action,
    observation: st.observations.map((o) => o.text).join('\n'),
    response: st.response,
    thought: st.response,
    execution_time: st.observations.length ? seconds(st.at, st.observations[st.observations.length - 1].at) : 0.05,
    state: { open_file: 'n/a', working_dir: '/testbed' },
    query: [{ role: 'user', content: cut(s.turns[1].text, 200), agent: 'main', message_type: 'observation' }],
    extra_info: {},
    i,
  })).map(({ i, ...step }) => step);
  const patch = `diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n-${cut(s.turns[1].text, 60)}\n+${cut(s.turns[0].text, 60)}\n`;
  const replay = { env: { deployment: { image: 'python:3.11', type: 'docker' }, repo: { repo_name: 'testbed', type: 'preexisting' } }, agent: { name: 'main', model: { name: s.model } }, problem_statement: { id: `synthetic-${s.index}`, type: 'text', text: cut(s.turns[1].text, 300) } };
  const sent = r.int(1000, 200000);
  return {
    trajectory: steps,
    history,
    info: { swe_agent_version: '1.1.0', submission: patch, exit_status: 'submitted', model_stats: { instance_cost: sent / 1e6, tokens_sent: sent, tokens_received: r.int(100, 20000), api_calls: steps.length } },
    replay_config: JSON.stringify(replay),
    environment: 'main',
  };
}

export function records(r, s) {
  return [traj(r, s)];
}
