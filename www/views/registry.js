// The views (tabs) of a loaded trace, and the hook for more.
//
// A view is { id, label, available(info) → boolean, render(panel, ctx) }.
// `info` is what the worker's `parse` returned (format, counts, stats, …);
// `ctx` gives the view what it may do:
//   ctx.call(op, args)   ask the worker about this trace (ops in worker.js)
//   ctx.goto(index)      show event `index` in the events view
//   ctx.setQuery(query)  filter the events view
//   ctx.run              the run picked in the run switcher (null: all)
//   ctx.id(name)         an element id unique to this viewer (several can share a page)
// `render` is called each time the tab is shown for a trace; the panel is
// emptied before.
//
// Format-specific views (OpenHands' condensed and LLM-message views, an
// AgentRun's text, …) plug in here: add www/views/<format>.js that calls
// registerView({ id: 'openhands-condensed', label: 'Condensed',
// available: (info) => info.format === 'openhands', render }) and import it
// from www/views/index.js. Such a view gets its data through ctx.call; a
// worker op that needs new core support is added to worker.js and the wasm
// API in the same change.

const views = [];

export function registerView(view) {
  if (views.some((v) => v.id === view.id)) throw new Error(`view ${view.id} registered twice`);
  views.push(view);
}

/** The views that apply to a trace, in registration order. */
export function viewsFor(info) {
  return views.filter((v) => v.available(info));
}

export function viewById(id) {
  return views.find((v) => v.id === id);
}
