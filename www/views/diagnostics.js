// Diagnostics: every finding (a virtualised list: a broken 100 MB file can
// have hundreds of thousands); click one to jump to its event.

import { el } from '../dom.js';
import { VirtualList } from '../vlist.js';

function renderDiagnostic(d) {
  return el(
    'div',
    { className: `d severity-${d.severity}` },
    el('div', { className: 'd-line' }, el('span', { className: `badge sev-${d.severity}` }, d.severity), el('code', { className: 'code' }, d.code), ' ', el('span', { className: 'message' }, d.message)),
    el('div', { className: 'd-where muted' }, `line ${d.line}:${d.column} · ${d.path}`, d.event !== null && d.event !== undefined ? ` · event #${d.event}` : '', d.snippet ? ` · near: ${d.snippet}` : ''),
  );
}

export const diagnosticsView = {
  id: 'diagnostics',
  label: 'Diagnostics',
  available: () => true,
  render(panel, ctx) {
    const { info } = ctx;
    const { errors, warnings } = info.stats;
    const infos = info.diagnosticCount - errors - warnings;
    const n = (count, word) => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;
    panel.append(el('h2', { className: 'view-title', id: ctx.id('diagnostics-title') }, `${n(info.diagnosticCount, 'diagnostic')}: ${n(errors, 'error')}, ${n(warnings, 'warning')}, ${infos.toLocaleString()} info`));
    if (!info.diagnosticCount) {
      panel.append(el('p', { className: 'muted' }, 'Nothing to report: the file reads as its format expects.'));
      return;
    }
    panel.append(el('p', { className: 'muted' }, 'Click a finding (or select it and press Enter) to see its event.'));
    const root = el('div', { className: 'vlist diag-list', id: ctx.id('diagnostics-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Diagnostics' });
    panel.append(root);
    const list = new VirtualList(root, {
      rowHeight: 48,
      idPrefix: ctx.id('diag'),
      fetchRows: (start, end) => ctx.call('diagnostics', { start, count: end - start }),
      renderRow: renderDiagnostic,
      onActivate: async (pos) => {
        list.select(pos, { scroll: false });
        const [d] = await ctx.call('diagnostics', { start: pos, count: 1 });
        if (d && d.event !== null && d.event !== undefined) ctx.goto(d.event);
      },
    });
    list.reset(info.diagnosticCount);
    panel.list = list;
  },
};
