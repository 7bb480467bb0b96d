/** Options for {@link parseTrace}. */
export interface ParseOptions {
  /** Force a format by id instead of detecting it: one of {@link formats}(). */
  format?: string;
}

export type Severity = "info" | "warning" | "error";

/** A finding about the input, pinned to a place in it. */
export interface Diagnostic {
  severity: Severity;
  /** Stable code, e.g. "arguments-not-json". */
  code: string;
  message: string;
  /** JSONPath inside the top-level value (for JSON Lines: inside that line's value). */
  path: string;
  line: number;
  column: number;
  /** Byte offset in the input. */
  offset: number;
  /** Index of the event the finding is about. */
  event: number | null;
  /** The source line around the place, for syntax errors. */
  snippet?: string;
}

/** Why the format was chosen. */
export interface Detection {
  format: string;
  forced: boolean;
  confidence: number;
  evidence: string[];
  runnerUp: string | null;
}

export type ContentPartView =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "image"; url: string }
  | { type: "other"; json: unknown };

export interface ToolCallView {
  /** Position in the event's calls: the call is addressed as (event index, call index). */
  index: number;
  id?: string;
  function: string;
  /** Parsed arguments; null when they did not parse. */
  arguments: unknown | null;
  /** Original text when the arguments came as a JSON string. */
  argumentsText?: string;
  /** Index of the event holding the result. */
  result: number | null;
}

export interface CallRef { event: number; call: number }

export type ToolStatus = "unknown" | "success" | "error";

/**
 * What every event row has, whatever its kind. Rows are discriminated
 * unions on `kind` ({@link EventView}): `if (e.kind === "tool-call")` narrows
 * to {@link ToolCallEventView}. tests/node/event-types.test.mjs checks real
 * rows of every format against these declarations, field by field.
 */
export interface EventViewBase {
  index: number;
  run: number;
  transcript: number;
  /** The format's own record kind (Message, ToolOutput, ToolCall, Tool, …). */
  sourceKind: string;
  timestamp?: string;
  /** Readable text of the content (text parts joined); why the record did not parse for `unparsed`; "" for kinds without content. */
  text: string;
  summary: string;
  path: string;
  line: number;
  column: number;
  errors: number;
  warnings: number;
  /** The span path the record was logged under, root first (Agent Catalog). */
  span?: string[];
  /** Record fields the body has no place for (model, token counts, state, …). */
  metadata?: Record<string, unknown>;
}

/** The typed facts a record gives (model, token usage, cost, duration), on the
 * kinds that can carry them (not tool definitions or unreadable records);
 * absent when none. */
export interface WithFacts {
  facts?: EventFactsView;
}

/** An event's typed facts, each absent when the record does not give it. */
export interface EventFactsView {
  model?: string;
  usage?: Usage;
  /** What the call cost, as the record itself reports it. */
  cost?: Cost;
  durationMs?: number;
}

/** A chat message (user, assistant, system, …), with the calls it makes. */
export interface MessageEventView extends EventViewBase, WithFacts {
  kind: "message";
  role: string;
  /** The content parts, when the content was a list. */
  parts?: ContentPartView[];
  /** Structured content (a JSON value that is not text or parts). */
  json?: unknown;
  /** The tool calls the message makes (absent when none). */
  toolCalls?: ToolCallView[];
}

/** A tool call recorded on its own (not inside a message). */
export interface ToolCallEventView extends EventViewBase, WithFacts {
  kind: "tool-call";
  /** The one call of the record. */
  toolCalls: [ToolCallView];
  /** The source marks the call itself as failed (its own status). */
  failed?: true;
}

/** A tool's output. */
export interface ToolResultEventView extends EventViewBase, WithFacts {
  kind: "tool-result";
  role: "tool";
  parts?: ContentPartView[];
  /** Structured content (a tool output object). */
  json?: unknown;
  callId?: string;
  /** The call the result answers. */
  call?: CallRef;
  callFunction?: string;
  /** True when the link was inferred from order (no tool_call_id). */
  implicitLink?: true;
  status: ToolStatus;
  /** The source marks the result as a failure (AgentLens tool errors). */
  failed?: true;
}

/** The tools offered to the model. */
export interface ToolDefinitionsEventView extends EventViewBase {
  kind: "tool-definitions";
  /** Tool names (absent when the list is empty). */
  tools?: string[];
}

/** A span's begin or end record. */
export interface SpanEventView extends EventViewBase, WithFacts {
  kind: "span";
  /** The source marks the span as failed (an OpenTelemetry error status). */
  failed?: true;
}
/** A marker (an agent call or error, a hand-off, …): its label is the summary. */
export interface MarkerEventView extends EventViewBase, WithFacts {
  kind: "marker";
  /** The source marks the record as a failure (an AgentLens agent_error). */
  failed?: true;
}
/** A key-value record: `key = value` is the summary. */
export interface KeyValueEventView extends EventViewBase, WithFacts { kind: "key-value" }
/** A record that could not be read: `text` says why. */
export interface UnparsedEventView extends EventViewBase { kind: "unparsed" }

/** One event as a display row: a discriminated union on `kind`. */
export type EventView =
  | MessageEventView | ToolCallEventView | ToolResultEventView | ToolDefinitionsEventView
  | SpanEventView | MarkerEventView | KeyValueEventView | UnparsedEventView;

export type EventKind = EventView["kind"];

/** A run without its metadata and transcripts (`trace.runHeads()`). */
export interface RunHead {
  index: number;
  id: string;
  name: string | null;
  /** Index of the run's first event; its events are contiguous. */
  firstEvent: number;
  eventCount: number;
  /** The tool call that started the run, when it is a sub-agent's (a Claude Code task, a Gemini CLI sub-agent). */
  startedBy: CallRef | null;
  /** The archive member holding the run's body when it was left unread (a `LazyArchive`'s runs trace): the run has its summary's metadata and outcome, not its events yet. */
  pendingBody?: string;
}

/** A run as `trace.runs()` lists it: its head, its metadata and transcripts. */
export interface RunView extends RunHead {
  description: string | null;
  transcripts: { key: string; firstEvent: number; eventCount: number }[];
  metadata: Record<string, unknown>;
}

/** What every list row has: what one line of the event list shows. */
export interface RowViewBase {
  index: number;
  run: number;
  sourceKind: string;
  timestamp?: string;
  /** One line: text, `function(arguments)` of calls, `function: result`. */
  summary: string;
  errors: number;
  warnings: number;
}

export interface MessageRowView extends RowViewBase {
  kind: "message";
  role: string;
  /** The result event of each call the message makes (null: unanswered); absent without calls. */
  results?: (number | null)[];
}

export interface ToolCallRowView extends RowViewBase {
  kind: "tool-call";
  /** The result event of the call (null: unanswered). */
  results: [number | null];
  /** The source marks the call itself as failed. */
  failed?: true;
}

export interface ToolResultRowView extends RowViewBase {
  kind: "tool-result";
  role: "tool";
  /** The event holding the call this result answers. */
  callEvent?: number;
  status: ToolStatus;
  /** The source marks the result as a failure. */
  failed?: true;
}

export interface MarkerRowView extends RowViewBase {
  kind: "marker";
  /** The source marks the record as a failure (an agent error). */
  failed?: true;
}

export interface SpanRowView extends RowViewBase {
  kind: "span";
  /** The source marks the span as failed (an OpenTelemetry error status). */
  failed?: true;
}

/** Rows of the other kinds carry only the common fields. */
export interface PlainRowView extends RowViewBase {
  kind: "tool-definitions" | "key-value" | "unparsed";
}

/** A light list row: a discriminated union on `kind`, like {@link EventView}. */
export type RowView = MessageRowView | ToolCallRowView | ToolResultRowView | MarkerRowView | SpanRowView | PlainRowView;

/** Counts per facet among the events matching a query. */
export interface Facets {
  total: number;
  role: Record<string, number>;
  kind: Record<string, number>;
  sourceKind: Record<string, number>;
  /** Events calling each tool or answering a call of it. */
  tool: Record<string, number>;
}

/** A scalar run-metadata field the run filter can use. */
export interface FilterableField {
  /** `metadata.scores.correct`, …, and `text`. */
  name: string;
  type: "bool" | "int" | "float" | "str";
}

/** Calls, results and failures of one tool. */
export interface ToolStat {
  tool: string;
  calls: number;
  /** Calls with a linked result. */
  answered: number;
  /** Calls without one. */
  unanswered: number;
  /**
   * Calls that failed by the trace's own word: an error status on the result
   * (an `error` field, `is_error`, an error observation) or a record the format
   * marks failed. Never a validation diagnostic.
   */
  failures: number;
  firstEvent: number;
  /** Sum of the durations recorded on the calls (or their results), and how many had one. */
  durationMsTotal: number;
  durations: number;
}

/** One opening of a span (`trace.spans()` lists them in the order they begin), read off the span tree. */
export interface SpanNode {
  run: number;
  name: string;
  /** Names from the root, joined with `/`. */
  path: string;
  depth: number;
  /** Event index of the begin record. */
  begin: number;
  /** Event index of the end record; null when never closed. */
  end: number | null;
  startTime?: string;
  endTime?: string;
}

/** Token counts, as the format reports them (0 where it gives none). */
/** Spans as bars on a time axis (`trace.spanBars()`), one entry per bar in each column, ordered by start. */
export interface SpanBars {
  /** Milliseconds since the Unix epoch of the earliest start (0 without bars). */
  originMs: number;
  /** Start of each bar in milliseconds after `originMs`. */
  start: number[];
  /** Length in milliseconds (0: an instant, or no time at the end). */
  duration: number[];
  /** The lane within the run: a span's nesting depth; for calls, the first lane free at their start. */
  depth: number[];
  run: number[];
  /** A span's opening, or (in a run without spans) a tool call from its time to its result's. */
  kind: ("span" | "call")[];
  /** A span's node in `spanTree()`; null for a call. */
  node: (number | null)[];
  /** The event that opened the span, or that made the call. */
  event: number[];
  /** The span's begin or end record says it failed; the call failed. */
  failed: boolean[];
  /** The span's name, or the tool's. */
  name: string[];
  /** Each node's path (`agent/task`, what the `span:` query takes), by node index. */
  nodePaths: string[];
  /** Span openings and calls with no time on either record (not drawn). */
  untimed: number;
}

/** One row of a run comparison: the event of each side (absent: a gap). */
export interface AlignedStep {
  /** `same` content, `changed` content under the same role and tools, or only on one side. */
  change: "same" | "changed" | "removed" | "added";
  left?: number;
  right?: number;
  /** The step's role and the tools it names (`assistant: read`, `result: read`). */
  key: string;
}

/** Two runs aligned turn by turn (`trace.compareRuns(a, b)`, or a run of another trace: `trace.compareRunsWith(other, a, b)`). */
export interface Comparison {
  left: RunRow;
  right: RunRow;
  steps: AlignedStep[];
  same: number;
  changed: number;
  removed: number;
  added: number;
  /** The middle was too long to align and was paired by position. */
  approximate: boolean;
}

/** What `redact` masks besides nothing (all optional). */
export interface RedactOptions {
  /** Leave out the built-in kinds (keys and tokens, JWTs, bearer tokens, private keys, e-mail addresses). */
  noBuiltin?: boolean;
  /** Regexes (regex-lite syntax); a match, or its first group, is masked as `custom`. */
  patterns?: string[];
  /** Literal strings masked as `literal`. */
  literals?: string[];
}

/** How often a kind of secret was masked. */
export interface RedactKindCount { kind: string; occurrences: number; distinct: number }

/** What a redaction masked. */
export interface RedactReport {
  /** Per kind, most masked first. */
  kinds: RedactKindCount[];
  /** JSON strings that changed. */
  stringsChanged: number;
  /** String literals that could not be searched (not UTF-8), left as they are. */
  stringsUnread: number;
}

/** A placeholder and the secret it stands for, masked (its first characters at most, and its length). */
export interface RedactExample { placeholder: string; masked: string }

/** The redacted file (UTF-8 JSON of the input's format; for a zip such as an Inspect `.eval`, a zip of the same files, each redacted), what was masked, and the first few placeholders of each kind. */
export interface Redacted { bytes: Uint8Array; report: RedactReport; examples: RedactExample[] }

/** One run's row of the runs table (`trace.runRows()`). */
export interface RunRow {
  run: number;
  id: string;
  name?: string;
  /** Each score by name: `metadata.scores.<name>`, or its `value` when the score is an object (scalars only). */
  scores: Record<string, string | number | boolean>;
  /** The model the run's events name most often, else the run metadata's `model`. */
  model?: string;
  events: number;
  toolCalls: number;
  /** Records that say they failed: failed calls, failed results answering no call, records marked failed. */
  failures: number;
  /** Total tokens the run's events report. */
  tokens: number;
  /** The cost (US dollars) the run's events report, when any does; calls reporting none are not in it. */
  cost?: number;
  /** First to last timestamp of the run, when both read as times. */
  durationSeconds?: number;
  /** What the run's metadata says went wrong (`error`, or a `limit` reached). */
  error?: string;
  /** The run's body was not read yet (a `LazyArchive`'s runs trace): `events`, `toolCalls`, `failures` and `durationSeconds` are not known (0 / absent), nor `tokens` when its summary reports none. */
  pending?: true;
}

/** Usage summed over events: in all, per model ("" when the event names none), and how many events reported any. */
export interface UsageTotals {
  total: Usage;
  byModel: Record<string, Usage>;
  events: number;
  /** The cost the events report, summed like the usage (a repeated usage's
   * cost counted once); absent, not 0, when no event reports one. */
  cost?: CostTotals;
}

/** Cost summed over the events that report one: in all, per model ("" when
 * the event names none), and how many events reported one (fewer than
 * `UsageTotals.events` means some calls' cost is not in the total). */
export interface CostTotals { total: Cost; byModel: Record<string, Cost>; events: number }

/** What a model call cost, in US dollars, as the trace reports it (Langfuse
 * `costDetails`, LangSmith `total_cost`, Claude Code `costUSD`, OpenInference
 * `llm.cost.*`, Inspect `ModelUsage.total_cost`): never priced by the viewer. */
export interface Cost {
  /** The source's total, else the sum of the parts it gives. */
  total: number;
  /** The input (prompt) cost, when the source gives it apart. */
  input?: number;
  /** The output (completion) cost, when the source gives it apart. */
  output?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningOutputTokens: number;
  totalTokens: number;
}

/** The counts of a trace: what the CLI's `stats --format json` prints for it too. */
export interface TraceStats {
  format: string;
  events: number;
  runs: number;
  toolCalls: number;
  linkedResults: number;
  errors: number;
  warnings: number;
  byKind: Record<string, number>;
  byRole: Record<string, number>;
  /** Per tool, most-called first: the same list as {@link Trace.toolStats}. */
  tools: ToolStat[];
  /** Tool results that answer no call of the trace. */
  unlinkedResults: { results: number; failures: number };
  /** Token usage over all events, and per model ("" when the event names none). */
  usage: UsageTotals;
  /** First and last timestamp of each run that has one, and the seconds between. */
  runTimes: { run: number; first: string | null; last: string | null; durationSeconds: number | null }[];
}

/** Diagnostics with the same severity, code and message, as one finding. */
export interface DiagnosticGroup {
  code: string;
  severity: Severity;
  message: string;
  /** How many diagnostics. */
  count: number;
  /** How many distinct events they are about. */
  events: number;
  /** Their indices in {@link Trace.diagnostics} order. */
  diagnostics: number[];
  /** The first of them. */
  first: number;
}
/** Files read together as one trace ({@link groupFiles}): `files` are indices into the paths given. */
export interface FileGroup { name: string; files: number[] }
/** One input file of a multi-file trace. */
export interface FileInput { name: string; bytes: Uint8Array }

/** A file of the trace's source: `range` is its byte range in the joined source. */
export interface SourceFileView { name: string; start: number; end: number; firstLine: number }

/** One entry of OpenHands' condensed view (Condensation.apply). */
export interface CondensedEntry { event: number | null; id: string; kind: string; summary?: string }
export interface CondensedView { entries: CondensedEntry[]; unhandledCondensationRequest: boolean; dropped: number[] }

/** One message of the LLM message stream OpenHands' events_to_messages yields. */
export interface LlmMessage {
  role: string;
  events: number[];
  toolCallIds?: string[];
  toolCallId?: string;
  contentParts: number;
  summaries?: string[];
}
export interface LlmMessages { messages: LlmMessage[]; error?: string }
/** A view a format offers besides the event list (`trace.formatViews()`). */
export interface FormatViewInfo {
  name: string;
  label: string;
  description: string;
}
/** One row of a format view. */
export interface FormatViewItem {
  /** When set, the row shows this event as the event list does. */
  event: number | null;
  /** A short label before the text (a role, `summary`). */
  badge: string | null;
  /** Shown when there is no event row, or beside it. */
  text: string;
  /** Trace events the row links to. */
  events: number[];
  /** Extra facts of the row (`data-*` attributes in the page). */
  attrs: Record<string, string>;
}
/** A format view of one run (`trace.formatView(name, run)`). */
export interface FormatView {
  name: string;
  label: string;
  title: string;
  notes: string[];
  notices: string[];
  error: string | null;
  items: FormatViewItem[];
  /** The format's own shape of the view (what `condensedView`/`llmMessages` return). */
  data: unknown;
}
/** One span path of one run (Agent Catalog spans; any format with span events).
 * (Not `SpanNode`, the flat pre-order list's item of `trace.spans()`.) */
export interface SpanTreeNode {
  run: number;
  name: string;
  depth: number;
  parent: number | null;
  children: number[];
  occurrences: { begin: number | null; end: number | null }[];
  /** Events logged under exactly this path. */
  events: number[];
}
export interface SpanTree {
  nodes: SpanTreeNode[];
  roots: number[];
  /** Hand-offs between spans (Agent Catalog `edge` records). */
  handoffs: { event: number; run: number; source: string[]; dest: string[]; sourceNode: number | null; destNode: number | null }[];
  /** Begin/end records without a partner. */
  issues: { code: string; event: number; run: number; node: number }[];
}
/** A glob filter of Docent's AgentRunContextConfig: dot-path fnmatch patterns. */
export interface GlobFilter { include?: string[]; exclude?: string[] }

/**
 * Docent's own `AgentRunContextConfig` in its JSON form. Missing fields take
 * Docent's defaults: all metadata hidden, every transcript and group shown.
 */
export interface AgentRunContextConfig {
  type?: "agent_run";
  agent_run_metadata?: GlobFilter;
  transcript_group_names?: GlobFilter;
  transcript_group_metadata?: GlobFilter;
  transcript_names?: GlobFilter;
  transcript_metadata?: GlobFilter;
  message_metadata?: GlobFilter;
}

/** Options for {@link Trace.toAgentRunText}. */
export interface AgentRunTextOptions {
  /** `legacy`: docent-python 0.1.3a0's `AgentRun.to_text`; `current` (default): docent 0.1.88's `AgentRunView.to_text()`. */
  style?: "legacy" | "current";
  /** Legacy only: split as `to_text(token_limit)` does (needs a tokenizer). */
  tokenLimit?: number;
  /** Current only: which metadata and transcripts to show. */
  context?: AgentRunContextConfig;
  /** Which run of the trace (default 0). */
  run?: number;
}

/** tiktoken's cl100k_base: the `agent-trace-viewer/tokenizer` module's exports fit. */
export interface Cl100kTokenizer {
  encode(text: string): Uint32Array | number[];
  decode(tokens: Uint32Array): string;
}

/** A member of an archive opened lazily (`LazyArchive.entries()`). */
export interface ArchiveEntry {
  name: string;
  /** Bytes of its compressed data. */
  compressed: number;
  /** Bytes once inflated, as the archive's directory says. */
  size: number;
  /** `body` (a run's, read on demand), `summaries` (read at open, not needed for a body) or `head` (read at open). */
  role: 'body' | 'summaries' | 'head';
}

/** A body's bytes as read from the file: `bytes` from `readRange(entry)[0]` on (`LazyArchive.runsTrace`). */
export interface ArchiveRead { entry: number; bytes: Uint8Array }
