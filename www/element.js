// <agent-trace-viewer src="trace.json" controls></agent-trace-viewer>: the
// viewer as a custom element, in its own shadow root (the page's styles and
// ids stay out, the viewer's stay in). Importing this module defines it.
//
// Attributes (read when the element is connected):
//   src       a URL to load; changing it loads the new one
//   controls  show the open-files / paste controls and accept drops
// Properties and methods forward to the viewer's handle (viewer.d.ts):
//   el.load(input), el.select(index), el.setQuery(q), el.ready, el.info,
//   el.viewer (the handle itself). Events: atv-load, atv-select, atv-error.

import { mountViewer } from './viewer.js';

const Base = typeof HTMLElement === 'function' ? HTMLElement : class {};

export class AgentTraceViewerElement extends Base {
  static observedAttributes = ['src'];

  #viewer = null;

  /** The viewer's handle, mounted on first use (connection or a method call). */
  get viewer() {
    this.#viewer ??= mountViewer(this, { shadow: true, controls: this.hasAttribute('controls') });
    return this.#viewer;
  }

  connectedCallback() {
    if (this.#viewer) return;
    const src = this.getAttribute('src');
    const viewer = this.viewer;
    if (src) this.#loadSrc(src, viewer);
  }

  disconnectedCallback() {
    // Moved (removed and inserted in one task): keep the viewer. Removed: free its worker.
    queueMicrotask(() => {
      if (this.isConnected || !this.#viewer) return;
      this.#viewer.destroy();
      this.#viewer = null;
    });
  }

  attributeChangedCallback(name, old, value) {
    if (name === 'src' && this.#viewer && value && value !== old) this.#loadSrc(value, this.#viewer);
  }

  #loadSrc(src, viewer) {
    // A failure is shown in the viewer and fired as atv-error; a superseded load is simply dropped.
    viewer.load(src).catch(() => {});
  }

  get src() {
    return this.getAttribute('src') ?? '';
  }

  set src(value) {
    this.setAttribute('src', value);
  }

  get controls() {
    return this.hasAttribute('controls');
  }

  set controls(on) {
    this.toggleAttribute('controls', Boolean(on));
  }

  get ready() {
    return this.viewer.ready;
  }

  get info() {
    return this.#viewer?.info ?? null;
  }

  load(input) {
    return this.viewer.load(input);
  }

  select(index) {
    return this.viewer.select(index);
  }

  setQuery(query) {
    return this.viewer.setQuery(query);
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('agent-trace-viewer')) {
  customElements.define('agent-trace-viewer', AgentTraceViewerElement);
}
