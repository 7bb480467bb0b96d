// The views a trace's format declares besides the event list (the core's
// `trace.formatViews()`), one tab each, all shown by this one module: a
// title, notes, notices and an error from the core, then a virtualised list
// of items. An item with an `event` shows that event's row as the event
// list does; a badge and text stand beside it or alone; links lead to the
// item's events and activating the item opens its first. A new format view
// needs no page code: the format declares it and the core computes it.

import { el } from '../dom.js';
import { VirtualList } from '../vlist.js';
import { eventLink, renderRow } from '../events.js';

/** Event links shown per item; the rest are counted. */
const SHOWN_LINKS = 4;

/** A `data-*` name the core gave (`sdk-id`, `tool-call-ids`); anything else is left out. */
const ATTR_NAME = /^[a-z][a-z0-9-]*$/;

function badgeClass(name) {
  return `badge badge-${String(name).replace(/[^a-z0-9-]/gi, '_')}`;
}

/** One item of a format view (`row`: the RowView of its `event`, attached by the worker). */
export function renderFormatItem(item, pos) {
  const row = item.event !== null && item.event !== undefined ? item.row : null;
  // The item's position in the view (a row also carries its event's #index).
  const parts = [el('span', { className: 'r-index' }, `${pos + 1}.`)];
  if (item.badge) parts.push(el('span', { className: badgeClass(item.badge) }, item.badge));
  if (item.text) parts.push(el('span', { className: row ? 'fv-text muted' : 'r-summary' }, item.text));
  if (row) parts.push(renderRow(row));
  else if (!item.text && item.event !== null && item.event !== undefined) parts.push(el('span', { className: 'r-summary muted' }, `event #${item.event}`));
  // Links to the item's events, but for the one its row shows.
  const links = (item.events ?? []).filter((i) => !(row && i === item.event));
  for (const i of links.slice(0, SHOWN_LINKS)) parts.push(eventLink(i, `#${i}`, 'a trace event of this item'));
  if (links.length > SHOWN_LINKS) parts.push(el('span', { className: 'muted' }, `+${links.length - SHOWN_LINKS}`));
  const node = el('div', { className: `r fv-item${row ? ' fv-with-row' : ''}` }, ...parts);
  for (const [key, value] of Object.entries(item.attrs ?? {})) {
    if (ATTR_NAME.test(key)) node.setAttribute(`data-${key}`, String(value));
  }
  return node;
}

/** The first trace event an item leads to, or null. */
function targetOf(item) {
  if (item.event !== null && item.event !== undefined) return item.event;
  return item.events?.length ? item.events[0] : null;
}

/** Renders view `info` ({ name, label, description }) of the run picked in the run switcher. */
async function renderFormatView(panel, ctx, info) {
  const run = ctx.run ?? 0;
  const name = info.name;
  const head = await ctx.call('formatView', { name, run });
  const id = (part) => ctx.id(`format-${name}-${part}`);
  const runs = ctx.info.runCount;
  panel.append(
    el('h2', { className: 'view-title', id: id('title') }, `${head.title} of run #${run}${runs > 1 ? ` of ${runs}` : ''}`),
    el('div', { className: 'fv-notes', id: id('notes') }, ...head.notes.map((note) => el('p', { className: 'muted' }, note))),
  );
  for (const notice of head.notices) panel.append(el('p', { className: 'notice' }, notice));
  if (head.error) panel.append(el('p', { className: 'load-error', role: 'alert', id: id('error') }, head.error));
  if (!head.count) return;
  const root = el('div', { className: 'vlist event-list', id: id('list'), role: 'listbox', tabIndex: 0, 'aria-label': head.title });
  panel.append(root);
  const page = (start, count) => ctx.call('formatView', { name, run, start, count });
  const list = new VirtualList(root, {
    rowHeight: 30,
    idPrefix: ctx.id(`format-${name}`),
    fetchRows: (start, end) => page(start, end - start),
    renderRow: renderFormatItem,
    onActivate: async (pos) => {
      list.select(pos, { scroll: false });
      const [item] = await page(pos, 1);
      const target = item ? targetOf(item) : null;
      if (target !== null) ctx.goto(target);
    },
  });
  list.reset(head.count);
  panel.list = list;
}

/**
 * The tabs of a trace's format views (the worker's parse result carries
 * `formatViews`, the core's `trace.formatViews()`): tab id `format-<name>`.
 */
export const formatViews = {
  id: 'format',
  views: (info) =>
    (info.formatViews ?? []).map((view) => ({
      id: `format-${view.name}`,
      label: view.label,
      description: view.description,
      available: () => true,
      render: (panel, ctx) => renderFormatView(panel, ctx, view),
    })),
};
