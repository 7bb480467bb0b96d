// Type-checks the embedding API (`agent-trace-viewer/viewer` and
// `agent-trace-viewer/element`) as an app writes against it; the lines
// marked @ts-expect-error must stay errors.
import { mountViewer, type ViewerHandle, type ViewerTraceInfo, type ViewerOptions, type ViewerSelectDetail } from 'agent-trace-viewer/viewer';
import { AgentTraceViewerElement } from 'agent-trace-viewer/element';

declare const host: HTMLElement;
declare const file: File;

const options: ViewerOptions = { shadow: true, controls: true, samples: 'https://example.org/samples/index.json', dropTarget: document };
const viewer: ViewerHandle = mountViewer(host, options);
mountViewer(host);
mountViewer(host, { hash: false, globalKeys: false, urlParam: false, dropTarget: null, stylesheet: false, idPrefix: 'x-', title: 'Traces' });

async function use(): Promise<void> {
  await viewer.ready;
  const info: ViewerTraceInfo = await viewer.load(new Uint8Array([91, 93]));
  const events: number = info.eventCount;
  const format: string = info.format;
  const forced: boolean = info.detection.forced;
  const toolCalls: number = info.stats.toolCalls;
  const firstRun: number | undefined = info.runs[0]?.firstEvent;
  const viewTabs: string[] = info.formatViews.map((v) => `${v.label}: ${v.description}`);
  void [events, format, forced, toolCalls, firstRun, viewTabs];
  await viewer.load(new ArrayBuffer(2));
  await viewer.load(file);
  await viewer.load(new Blob(['[]']));
  await viewer.load(new URL('https://example.org/trace.json'));
  await viewer.load('traces/run.jsonl');
  await viewer.load({ name: 'run.json', bytes: new Uint8Array() });
  await viewer.load({ name: 'pasted.json', bytes: '[]', format: 'openai' });
  // @ts-expect-error: numbers are not a trace
  await viewer.load(42);
  await viewer.select(3);
  const matches: number = await viewer.setQuery('role:tool');
  void matches;
  const shown: ViewerTraceInfo | null = viewer.info;
  const selected: number | null = viewer.selected;
  void [shown, selected];
  // @ts-expect-error: the handle's state is read-only
  viewer.info = null;
  viewer.destroy();
}
void use;

// The events are typed on any element.
host.addEventListener('atv-load', (e) => {
  const n: number = e.detail.eventCount;
  void n;
});
host.addEventListener('atv-select', (e) => {
  const d: ViewerSelectDetail = e.detail;
  const index: number = d.index;
  const summary: string = d.summary;
  void [index, summary];
});
host.addEventListener('atv-error', (e) => {
  const message: string = e.detail.message;
  void message;
});

// @ts-expect-error: an unknown option
mountViewer(host, { colour: 'red' });

// The custom element.
const tag = document.createElement('agent-trace-viewer');
const isElement: AgentTraceViewerElement = tag;
tag.src = 'trace.json';
tag.controls = true;
async function useTag(): Promise<void> {
  const info = await tag.load(new Uint8Array());
  const n: number = info.eventCount;
  await tag.select(n - 1);
  await tag.setQuery('is:error');
  const handle: ViewerHandle = tag.viewer;
  void handle;
  await tag.ready;
}
void [isElement, useTag];
const found = document.querySelector('agent-trace-viewer');
found?.addEventListener('atv-select', (e) => void e.detail.index);
