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
//   ctx.info             the trace's info
//   ctx.selected()       the selected event (the hash's `e=`), or null
//   ctx.select(index)    select event `index` for the whole viewer, staying in the view
// `render` is called each time the tab is shown for a trace; the panel is
// emptied before. The panel may carry `list` (for j/k, PgUp/PgDn, g/G,
// Enter), `focusSearch()` (for `/`) and `followSelection(index)` (called
// when the selection changes from outside the view: back/forward, a link).
//
// A family of views is { id, views(info) → view[] }: views that depend on
// the trace, such as those its format declares (views/format.js, which
// shows every view a format offers through the core's
// `trace.formatView(name, run)`, so a format's own view needs no page
// code). A view that needs page code of its own goes in
// www/views/<name>.js, registered from www/views/index.js; a worker op that
// needs new core support is added to worker.js and the wasm API in the same
// change.

const entries = [];

export function registerView(view) {
  if (entries.some((v) => v.id === view.id)) throw new Error(`view ${view.id} registered twice`);
  entries.push(view);
}

/** Registers a family of views ({ id, views(info) }), shown where it is registered. */
export function registerViewFamily(family) {
  registerView(family);
}

/** The views that apply to a trace, in registration order (a family's in its own order). */
export function viewsFor(info) {
  return entries.flatMap((v) => (v.views ? v.views(info) : v.available(info) ? [v] : []));
}

/** A registered view (not one of a family's) by id. */
export function viewById(id) {
  return entries.find((v) => v.id === id && !v.views);
}
