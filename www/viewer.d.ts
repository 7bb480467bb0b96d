/// <reference lib="dom" />
// Types of `agent-trace-viewer/viewer` (viewer.js): the whole viewer, mounted
// in an element of your page. Hand-written; checked by tests/types/embed.mts.

import type { Detection, FilterableField, FormatViewInfo, TraceStats } from './pkg/agent_trace_viewer.js';

/** What `load()` accepts: bytes, a File or Blob, a URL (absolute or relative to the page), or named bytes or text. */
export type ViewerInput =
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | Blob
  | URL
  | string
  | { name?: string; bytes: Uint8Array | ArrayBuffer | ArrayBufferView | string; format?: string };

/** A run as the run switcher lists it. */
export interface ViewerRun {
  index: number;
  id: string;
  name: string | null;
  firstEvent: number;
  eventCount: number;
}

/** The trace a viewer shows: what `load()` resolves to and `atv-load` carries. */
export interface ViewerTraceInfo {
  name: string;
  /** Format id: one of `formats()` of the core. */
  format: string;
  /** "json" or "jsonl". */
  layout: string;
  /** The files or archive members read as this one trace; 1 for a single input. */
  fileCount: number;
  eventCount: number;
  runCount: number;
  byteLength: number;
  diagnosticCount: number;
  detection: Detection;
  stats: TraceStats;
  metadata: Record<string, unknown>;
  filterableFields: FilterableField[];
  runs: ViewerRun[];
  hasTimestamps: boolean;
  /** The views the format offers besides the event list (`trace.formatViews()`): a tab each. */
  formatViews: FormatViewInfo[];
  /** Time the core took to parse, in milliseconds. */
  parseMs: number;
}

/** `atv-select`'s detail: the event the user (or `select()`) picked. */
export interface ViewerSelectDetail {
  index: number;
  summary: string;
  role: string | null;
  kind: string;
}

/** `atv-error`'s detail: a load or start-up failure, as the viewer shows it. */
export interface ViewerErrorDetail {
  message: string;
  what: string;
}

export interface ViewerOptions {
  /** Keep the state (event, query, view, run, file) in `location.hash`. Default false. */
  hash?: boolean;
  /** Keyboard shortcuts and paste-to-load for the whole document; else only while focus is in the viewer. Default false. */
  globalKeys?: boolean;
  /** Show the open-files, open-folder and paste controls, and "Export redacted…" once a trace is loaded. Default false. */
  controls?: boolean;
  /**
   * With `controls`: the URL (relative to the document) of the viewer's file list that
   * scripts/build.sh writes (`files.json`); a "Bundle…" button then saves a .zip of the viewer
   * with the open traces, fetching those files from that site when clicked. Default none (no button).
   */
  bundleManifest?: string;
  /** A sample menu: true for `samples/index.json` next to the page, or the URL of an index.json. Default false. */
  samples?: boolean | string;
  /** Honour `?url=` (offered, fetched only when the user agrees) and `?sample=` in the page's URL. Default false. */
  urlParam?: boolean;
  /** Where dropped files open: an element, `document`, or null for nowhere. Default: the element when `controls`, else null. */
  dropTarget?: EventTarget | null | false;
  /** Mount in an open shadow root of the element: the page's styles and ids stay out. Default false. */
  shadow?: boolean;
  /** A heading above the controls (the standalone page's). Default none. */
  title?: string | null;
  /** Prefix of the viewer's element ids. Default: "" in a shadow root, else "atvN-" (unique per viewer). */
  idPrefix?: string;
  /** The stylesheet's URL (the package's style.css by default), or false to add none (you link it yourself). */
  stylesheet?: string | false;
  /**
   * The view a trace opens on when no link names one: `"transcript"` (the
   * default: the Transcript when the trace has a conversation, else the
   * events) or `"events"` (always the event list).
   */
  defaultView?: "transcript" | "events";
  /**
   * Zip files (an Inspect `.eval`) of at least this many bytes, opened from a `File`, open lazily:
   * the runs table from the archive's directory, header and summaries, each run's sample read from
   * the file when it is shown or searched. Default 16 MiB; `0` always, `Infinity` never.
   */
  lazyArchiveBytes?: number;
}

export interface ViewerHandle {
  /** The element the viewer is mounted in (events are fired on it). */
  readonly element: HTMLElement;
  /** Resolves when the parser (a Web Worker with the wasm core) is ready; rejects if it failed to start. */
  readonly ready: Promise<void>;
  /** The trace shown, or null. */
  readonly info: ViewerTraceInfo | null;
  /** The selected event's index, or null. */
  readonly selected: number | null;
  /**
   * Loads and shows a trace. Waits for `ready` when called early; a later
   * load (or one from the viewer's own controls) supersedes this one, which
   * then rejects with an `AbortError` whatever the order the parses finish in.
   * Rejects with the parse error when the input cannot be read.
   */
  load(input: ViewerInput): Promise<ViewerTraceInfo>;
  /** Selects event `index` in the events view and opens its detail. */
  select(index: number): Promise<void>;
  /** Filters the events view (the filter box's query language); resolves to the number of matches, rejects on a malformed query. */
  setQuery(query: string): Promise<number>;
  /** Stops the worker, removes the viewer's DOM and listeners; pending loads reject with an AbortError. */
  destroy(): void;
}

/** Mounts a viewer in `element`. */
export function mountViewer(element: HTMLElement, options?: ViewerOptions): ViewerHandle;

declare global {
  interface HTMLElementEventMap {
    'atv-load': CustomEvent<ViewerTraceInfo>;
    'atv-select': CustomEvent<ViewerSelectDetail>;
    'atv-error': CustomEvent<ViewerErrorDetail>;
  }
}
