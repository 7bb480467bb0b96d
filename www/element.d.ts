/// <reference lib="dom" />
// Types of `agent-trace-viewer/element` (element.js): importing it defines
// <agent-trace-viewer src="…" controls>.

import type { ViewerHandle, ViewerInput, ViewerTraceInfo } from './viewer.js';

export class AgentTraceViewerElement extends HTMLElement {
  /** The URL loaded from the `src` attribute; setting it loads the new one. */
  src: string;
  /** The `controls` attribute (read when the element is connected). */
  controls: boolean;
  /** The viewer's handle (mounted in the element's shadow root on first use). */
  readonly viewer: ViewerHandle;
  readonly ready: Promise<void>;
  readonly info: ViewerTraceInfo | null;
  load(input: ViewerInput): Promise<ViewerTraceInfo>;
  select(index: number): Promise<void>;
  setQuery(query: string): Promise<number>;
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-trace-viewer': AgentTraceViewerElement;
  }
}
