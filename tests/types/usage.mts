// Type-checks the package's public types the way a user writes code against
// them (`tsc -p tests/types`); the @ts-expect-error lines must stay errors.
import {
  parseTrace, formats, type EventView, type Diagnostic, type ToolCallView, type RowView, type Facets,
  type FilterableField, type ToolStat, type SpanNode, type DiagnosticGroup, type TraceStats, type Cost, type CostTotals,
} from 'agent-trace-viewer';

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
  // Kind-specific fields need the kind first (EventView is a discriminated union).
  const calls: ToolCallView[] = row.kind === 'message' ? row.toolCalls ?? [] : row.kind === 'tool-call' ? row.toolCalls : [];
  const firstResult: number | null | undefined = calls[0]?.result;
  void firstResult;
  const parts = row.kind === 'message' || row.kind === 'tool-result' ? row.parts ?? [] : [];
  for (const part of parts) {
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
const facets: Facets = trace.facets('role:tool');
const allFacets: Facets = trace.facets();
const someFacets: Facets = trace.facetsAt(new Uint32Array([0, 1]));
const toolCounts: Record<string, number> = facets.tool;
const fields: FilterableField[] = trace.filterableFields();
const fieldType: 'bool' | 'int' | 'float' | 'str' = fields[0].type;
const runs: Uint32Array = trace.filterRuns('metadata.score:>0.5');
const light: RowView[] = trace.rowsAt(new Uint32Array([1, 2]));
const callEvent: number | undefined = light[0].kind === 'tool-result' ? light[0].callEvent : undefined;
const page: RowView[] = trace.rows(0, 100);
const toolStats: ToolStat[] = trace.toolStats();
const stats: TraceStats = trace.stats();
const sameTools: ToolStat[] = stats.tools;
const unanswered: number = toolStats[0].unanswered;
const inputTokens: number = stats.usage.total.inputTokens;
const modelTokens: number | undefined = stats.usage.byModel['gpt-4o']?.totalTokens;
const unlinkedFailures: number = stats.unlinkedResults.failures;
// Cost is absent when the trace reports none; its parts when the source gives them apart.
const costTotals: CostTotals | undefined = trace.usage(0).cost;
const runCost: number | undefined = costTotals?.total.total;
const modelInput: number | undefined = costTotals?.byModel['gpt-4o']?.input;
// @ts-expect-error: cost may be absent (no reported cost is not 0)
const costNow: Cost = stats.usage.cost.total;
const groups: DiagnosticGroup[] = trace.diagnosticGroups();
const groupSeverity: 'info' | 'warning' | 'error' = groups[0].severity;
const groupMembers: number[] = groups[0].diagnostics;
// @ts-expect-error: a group's severity is a closed union
const badSeverity: DiagnosticGroup['severity'] = 'fatal';
const spans: SpanNode[] = trace.spans();
const spanEnd: number | null = spans[0].end;
const spanPath: string = spans[0].path;
// @ts-expect-error: the flat list's items have no children (those are SpanTreeNode's)
spans[0].children;
const tree = trace.spanTree();
const treeChildren: number[] = tree.nodes[0].children;
const firstBegin: number | null = tree.nodes[0].occurrences[0].begin;
// @ts-expect-error: a tree node has no path (the two span types were once merged by name)
tree.nodes[0].path;
const times: Float64Array = trace.timestamps();
const nDiag: number = trace.diagnosticCount;
const someDiags: Diagnostic[] = trace.diagnosticsRange(0, 50);
const eventDiags: Diagnostic[] = trace.eventDiagnostics(3);
trace.free();

// @ts-expect-error: kind is a closed union
const bad: EventView['kind'] = 'not-a-kind';
// @ts-expect-error: options.format is a string
parseTrace(new Uint8Array(), { format: 3 });

// @ts-expect-error: a FilterableField's type is a closed union
const badType: FilterableField['type'] = 'string';

void [n, f, ids, line, matches, detectionEvidence, byRole, raw, bad, allFacets, toolCounts, fieldType, runs, callEvent,
  someFacets, page, toolStats, spanEnd, times, nDiag, someDiags, eventDiags, badType, sameTools, unanswered, inputTokens,
  modelTokens, unlinkedFailures, runCost, modelInput, costNow, groupSeverity, groupMembers, badSeverity];
