// AgentRun text types, used as a user would.
import { parseTrace, type AgentRunContextConfig, type AgentRunTextOptions } from 'agent-trace-viewer';
import * as tokenizer from 'agent-trace-viewer/tokenizer';

const trace = parseTrace(new Uint8Array(), {});
const context: AgentRunContextConfig = { type: 'agent_run', agent_run_metadata: { include: ['*'], exclude: [] } };
const options: AgentRunTextOptions = { style: 'legacy', tokenLimit: 1000, run: 0 };
const text: string | string[] = trace.toAgentRunText({ style: 'current', context });
const chunks: string | string[] = trace.toAgentRunText(options, tokenizer);
const count: number = trace.agentRunTokenCount({ style: 'legacy' }, tokenizer);
const tokens: Uint32Array = tokenizer.encode('hello');
const n: number = tokenizer.count('hello');
const docentRun: Record<string, unknown> = trace.toAgentRun({ run: 0 });

// @ts-expect-error: style is a closed union
trace.toAgentRunText({ style: 'yaml' });
// @ts-expect-error: context.type is "agent_run"
const badContext: AgentRunContextConfig = { type: 'transcript' };

void [text, chunks, count, tokens, n, docentRun, badContext];
