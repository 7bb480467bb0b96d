// EventView and RowView are discriminated unions on `kind`: narrowing on it
// gives the kind's own fields, and only those (`tsc -p tests/types`; every
// ts-expect-error line below must stay an error).
// tests/node/event-types.test.mjs checks that real rows have exactly these fields.
import {
  parseTrace, type EventView, type EventKind, type RowView, type ToolCallView, type ToolStatus, type CallRef,
  type ContentPartView, type MessageEventView, type ToolCallEventView, type ToolResultEventView,
} from 'agent-trace-viewer';

function describe(e: EventView): string {
  switch (e.kind) {
    case 'message': {
      const role: string = e.role;
      const calls: ToolCallView[] | undefined = e.toolCalls;
      const parts: ContentPartView[] | undefined = e.parts;
      // @ts-expect-error: a message has no status (tool results do)
      void e.status;
      // @ts-expect-error: nor a call it answers
      void e.callFunction;
      // The facts the transcript's chips show: each part optional.
      const model: string | undefined = e.facts?.model;
      const tokens: number | undefined = e.facts?.usage?.totalTokens;
      return `${role}: ${e.text} (${calls?.length ?? 0} calls, ${parts?.length ?? 0} parts, ${model ?? '?'} ${tokens ?? 0})`;
    }
    case 'tool-call': {
      // Exactly one call: no optional chaining needed.
      const call: ToolCallView = e.toolCalls[0];
      const result: number | null = call.result;
      // @ts-expect-error: a standalone tool call has no role
      void e.role;
      // @ts-expect-error: the tuple has one element
      void e.toolCalls[1];
      return `${call.function} -> ${result}`;
    }
    case 'tool-result': {
      const status: ToolStatus = e.status;
      const role: 'tool' = e.role;
      const answers: CallRef | undefined = e.call;
      const fn: string | undefined = e.callFunction;
      const implicit: true | undefined = e.implicitLink;
      // @ts-expect-error: results make no calls
      void e.toolCalls;
      return `${role} ${fn ?? '?'} ${status} ${answers?.event ?? ''} ${implicit ?? ''}`;
    }
    case 'tool-definitions': {
      const tools: string[] | undefined = e.tools;
      // @ts-expect-error: tool definitions carry no facts
      void e.facts;
      return (tools ?? []).join(', ');
    }
    case 'span':
    case 'marker':
    case 'key-value':
    case 'unparsed':
      // @ts-expect-error: these kinds have only the common fields
      void e.role;
      return e.summary;
    default: {
      // Exhaustive: every kind is handled above.
      const unreachable: never = e;
      return unreachable;
    }
  }
}

function rowLine(r: RowView): string {
  if (r.kind === 'tool-call') {
    const [result]: [number | null] = r.results;
    return `${r.summary} -> ${result}`;
  }
  if (r.kind === 'tool-result') {
    const status: ToolStatus = r.status;
    return `${r.callEvent ?? '?'}: ${status}`;
  }
  if (r.kind === 'message') {
    // @ts-expect-error: callEvent belongs to tool-result rows
    void r.callEvent;
    return `${r.role}: ${r.results?.length ?? 0} calls`;
  }
  // @ts-expect-error: no role for the other kinds
  void r.role;
  return r.summary;
}

const trace = parseTrace(new Uint8Array(), {});
const events: EventView[] = trace.events(0, 100);
const lines: string[] = events.map(describe).concat(trace.rows(0, 100).map(rowLine));

// Type guards work as usual.
const calls: ToolCallEventView[] = events.filter((e): e is ToolCallEventView => e.kind === 'tool-call');
const messages: MessageEventView[] = events.filter((e): e is MessageEventView => e.kind === 'message');
const results: ToolResultEventView[] = events.filter((e): e is ToolResultEventView => e.kind === 'tool-result');
const kinds: EventKind[] = ['message', 'tool-call', 'tool-result', 'tool-definitions', 'span', 'marker', 'key-value', 'unparsed'];

// @ts-expect-error: before narrowing, kind-specific fields are not accessible
void events[0].toolCalls;
// @ts-expect-error: a tool-call event always holds exactly one call
const two: ToolCallEventView['toolCalls'] = [calls[0].toolCalls[0], calls[0].toolCalls[0]];
// @ts-expect-error: a kind's literal is fixed
const wrongKind: MessageEventView['kind'] = 'tool-call';
// @ts-expect-error: status is a closed union
const badStatus: ToolStatus = 'failed';

void [lines, messages, results, kinds, two, wrongKind, badStatus];
