// Diagnostics: every finding, grouped (a virtualised list: a broken 100 MB
// file can have hundreds of thousands). Findings with the same code,
// severity and message are one group (the worker's `diagnosticGroups`):
// a group of several is one line, "35 records: <message>" (or "N diagnostics
// in M records", "N times" when they name no event), that expands to
// its findings, so a file written by another version of a format's library
// reads as one finding, not a red wall. Click a finding to jump to its event.

import { el } from '../dom.js';
import { VirtualList } from '../vlist.js';
import { eventLink } from '../events.js';

/** Event links shown on a group's line; the rest are counted. */
const SHOWN_EVENTS = 5;

const plural = (count, word) => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

function where(d) {
  return `line ${d.line}:${d.column} · ${d.path}`;
}

function renderDiagnostic(d) {
  // A member of an open group: its line says the code and message; each member, where.
  if (d.member) {
    return el(
      'div',
      { className: `d d-member severity-${d.severity}`, 'data-diagnostic': d.index },
      el('div', { className: 'd-line' }, where(d), d.event !== null && d.event !== undefined ? [' · ', eventLink(d.event, `event #${d.event}`, 'the event this finding is about')] : ''),
      el('div', { className: 'd-where muted' }, d.snippet ? `near: ${d.snippet}` : ''),
    );
  }
  return el(
    'div',
    { className: `d severity-${d.severity}`, 'data-diagnostic': d.index },
    el('div', { className: 'd-line', title: d.message }, el('span', { className: `badge sev-${d.severity}` }, d.severity), el('code', { className: 'code' }, d.code), ' ', el('span', { className: 'message' }, d.message)),
    el('div', { className: 'd-where muted' }, where(d), d.event !== null && d.event !== undefined ? ` · event #${d.event}` : '', d.snippet ? ` · near: ${d.snippet}` : ''),
  );
}

/** What a group's line says before its message: "35 records", "3 diagnostics in 2 records", "2 times". */
function groupCount(g) {
  if (g.count === g.eventCount) return plural(g.count, 'record');
  if (!g.eventCount) return `${g.count.toLocaleString()} times`;
  return `${plural(g.count, 'diagnostic')} in ${plural(g.eventCount, 'record')}`;
}

function renderGroup(g, expanded) {
  const first = g.firstDiagnostic;
  const shown = g.someEvents.slice(0, SHOWN_EVENTS);
  const links = shown.flatMap((i) => [' ', eventLink(i, `#${i}`, 'an event this finding is about')]);
  const more = g.eventCount > shown.length ? ` +${(g.eventCount - shown.length).toLocaleString()}` : '';
  return el(
    'div',
    { className: `d d-group severity-${g.severity}`, 'data-group': g.group, 'aria-expanded': String(expanded) },
    el(
      'div',
      { className: 'd-line', title: `${groupCount(g)}: ${g.message}` },
      el('span', { className: 'd-toggle', 'aria-hidden': 'true' }, expanded ? '▾' : '▸'),
      el('span', { className: `badge sev-${g.severity}` }, g.severity),
      el('code', { className: 'code' }, g.code),
      ' ',
      el('span', { className: 'message' }, el('strong', { className: 'd-count' }, `${groupCount(g)}: `), g.message),
    ),
    el('div', { className: 'd-where muted' }, first ? `first at ${where(first)}` : '', g.eventCount ? ` · ${plural(g.eventCount, 'event')}:` : '', ...links, more),
  );
}

/**
 * The list's lines over the groups: a group of one is its finding; a
 * group of several is its summary line, followed by its findings when
 * expanded. Maps a list position to [group, member] (member -1: the summary).
 */
class GroupLayout {
  constructor(counts) {
    this.counts = counts;
    this.expanded = new Set();
    this.relayout();
  }

  relayout() {
    const n = this.counts.length;
    this.starts = new Uint32Array(n + 1);
    for (let g = 0; g < n; g++) {
      const c = this.counts[g];
      this.starts[g + 1] = this.starts[g] + (c > 1 ? 1 + (this.expanded.has(g) ? c : 0) : 1);
    }
  }

  get length() {
    return this.starts[this.counts.length];
  }

  /** [group, member] at list position `pos`. */
  at(pos) {
    let lo = 0;
    let hi = this.counts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    const offset = pos - this.starts[lo];
    if (this.counts[lo] === 1) return [lo, 0];
    return [lo, offset - 1];
  }

  /** Position of group `g`'s first line. */
  positionOf(g) {
    return this.starts[g];
  }

  toggle(g) {
    if (this.expanded.has(g)) this.expanded.delete(g);
    else this.expanded.add(g);
    this.relayout();
  }
}

export const diagnosticsView = {
  id: 'diagnostics',
  label: 'Diagnostics',
  available: () => true,
  async render(panel, ctx) {
    const { info } = ctx;
    const { errors, warnings } = info.stats;
    const infos = info.diagnosticCount - errors - warnings;
    panel.append(el('h2', { className: 'view-title', id: ctx.id('diagnostics-title') }, `${plural(info.diagnosticCount, 'diagnostic')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos.toLocaleString()} info`));
    if (!info.diagnosticCount) {
      panel.append(el('p', { className: 'muted' }, 'Nothing to report: the file reads as its format expects.'));
      return;
    }
    const layout = new GroupLayout(await ctx.call('diagnosticGroups'));
    const grouped = layout.counts.length < info.diagnosticCount;
    panel.append(
      el(
        'p',
        { className: 'muted', id: ctx.id('diagnostics-hint') },
        grouped ? `${plural(layout.counts.length, 'distinct finding')}; the same finding on several records is one line (click or Enter to expand it). ` : '',
        'Click a finding (or select it and press Enter) to see its event.',
      ),
    );
    const root = el('div', { className: 'vlist diag-list', id: ctx.id('diagnostics-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Diagnostics' });
    panel.append(root);
    const fetchLines = (start, end) => {
      const lines = [];
      for (let pos = start; pos < end; pos++) lines.push(layout.at(pos));
      return ctx.call('diagnosticLines', { lines });
    };
    const list = new VirtualList(root, {
      rowHeight: 48,
      idPrefix: ctx.id('diag'),
      fetchRows: fetchLines,
      renderRow: (line, pos) => {
        if (line.index === undefined) return renderGroup(line, layout.expanded.has(line.group));
        const [, member] = layout.at(pos);
        return renderDiagnostic({ ...line, member: layout.counts[line.group] > 1 && member >= 0 });
      },
      onActivate: async (pos) => {
        const [g, member] = layout.at(pos);
        if (member < 0) {
          // A group's line: open or close it, keeping it selected.
          layout.toggle(g);
          const top = root.scrollTop;
          list.reset(layout.length);
          root.scrollTop = top;
          list.select(layout.positionOf(g));
          return;
        }
        list.select(pos, { scroll: false });
        const [d] = await fetchLines(pos, pos + 1);
        if (d && d.event !== null && d.event !== undefined) ctx.goto(d.event);
      },
    });
    list.reset(layout.length);
    panel.list = list;
  },
};
