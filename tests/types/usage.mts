// Type-checks the package's public types the way a user writes code against
// them (`tsc -p tests/types`); the @ts-expect-error lines must stay errors.
import { parseTrace, formats, type EventView, type Diagnostic, type ToolCallView } from 'agent-trace-viewer';

const trace = parseTrace(new Uint8Array(), { format: 'openai' });
const n: number = trace.eventCount;
const f: string = trace.format;
const ids: string[] = formats();
const rows: EventView[] = trace.events(0, 10);
for (const row of rows) {
  if (row.kind === 'tool-result') {
    const status: 'unknown' | 'success' | 'error' | undefined = row.status;
    void status;
  }
  const calls: ToolCallView[] = row.toolCalls ?? [];
  const firstResult: number | null | undefined = calls[0]?.result;
  void firstResult;
  for (const part of row.parts ?? []) {
    if (part.type === 'image') {
      const url: string = part.url;
      void url;
    }
  }
}
const diags: Diagnostic[] = trace.diagnostics();
const line: number = diags[0].line;
const matches: Uint32Array = trace.filter('role:tool');
const detectionEvidence: string[] = trace.detection().evidence;
const byRole: Record<string, number> = trace.stats().byRole;
const raw: string | undefined = trace.rawJson(0);
trace.free();

// @ts-expect-error: kind is a closed union
const bad: EventView['kind'] = 'not-a-kind';
// @ts-expect-error: options.format is a string
parseTrace(new Uint8Array(), { format: 3 });

void [n, f, ids, line, matches, detectionEvidence, byRole, raw, bad];
