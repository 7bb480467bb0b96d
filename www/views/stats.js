// Stats: counts by role, kind and record kind; per-tool calls and failures.

import { el } from '../dom.js';

function countTable(title, counts, onPick) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  return el(
    'section',
    { className: 'stat-block' },
    el('h3', {}, title),
    entries.length
      ? el(
          'table',
          { className: 'counts' },
          el('tbody', {}, ...entries.map(([name, n]) => {
            const bar = el('span', { className: 'bar' });
            bar.style.width = `${(100 * n) / max}%`;
            const pick = onPick ? el('button', { type: 'button', className: 'link', title: `show only these events` }, name) : name;
            pick.addEventListener?.('click', () => onPick(name));
            return el('tr', {}, el('th', { scope: 'row' }, pick), el('td', { className: 'num' }, n.toLocaleString()), el('td', { className: 'bar-cell' }, bar));
          })),
        )
      : el('p', { className: 'muted' }, 'none'),
  );
}

export const statsView = {
  id: 'stats',
  label: 'Stats',
  available: () => true,
  async render(panel, ctx) {
    const { info } = ctx;
    const [tools, facets] = await Promise.all([ctx.call('toolStats'), ctx.call('filter', { query: '' }).then((r) => r.facets)]);
    const quote = (v) => (/[\s()"]/.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : v);
    const toolRows = tools.map((t) => {
      const pick = el('button', { type: 'button', className: 'link' }, t.tool);
      pick.addEventListener('click', () => ctx.setQuery(`tool:${quote(t.tool)}`));
      const failures = el('td', { className: `num${t.failures ? ' count-error' : ''}` }, t.failures.toLocaleString());
      return el('tr', {}, el('th', { scope: 'row' }, pick), el('td', { className: 'num' }, t.calls.toLocaleString()), el('td', { className: 'num' }, t.answered.toLocaleString()), el('td', { className: 'num' }, (t.calls - t.answered).toLocaleString()), failures);
    });
    panel.append(
      el('h2', { className: 'visually-hidden' }, 'Stats'),
      el(
        'div',
        { className: 'stat-grid' },
        countTable('By role', facets.role, (r) => ctx.setQuery(`role:${quote(r)}`)),
        countTable('By kind', facets.kind, (k) => ctx.setQuery(`kind:${quote(k)}`)),
        countTable('By record kind', facets.sourceKind, (k) => ctx.setQuery(`kind:${quote(k)}`)),
      ),
      el(
        'section',
        { className: 'stat-block' },
        el('h3', {}, `Tools (${info.stats.toolCalls.toLocaleString()} calls, ${info.stats.linkedResults.toLocaleString()} linked results)`),
        tools.length
          ? el(
              'table',
              { className: 'tools', id: ctx.id('tool-table') },
              el('thead', {}, el('tr', {}, ...['tool', 'calls', 'answered', 'unanswered', 'failures'].map((h) => el('th', { scope: 'col' }, h)))),
              el('tbody', {}, ...toolRows),
            )
          : el('p', { className: 'muted' }, 'No tool calls in this trace.'),
      ),
    );
  },
};
