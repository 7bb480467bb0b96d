// The span tree, from the model's span begin/end events (formats with nesting).

import { el } from '../dom.js';

export const spansView = {
  id: 'spans',
  label: 'Spans',
  available: (info) => (info.stats.byKind.span ?? 0) > 0,
  async render(panel, ctx) {
    const spans = await ctx.call('spans');
    panel.append(el('h2', { className: 'view-title' }, `${spans.length.toLocaleString()} spans`));
    const tree = el('ul', { className: 'span-tree', role: 'tree', 'aria-label': 'Span tree' });
    for (const s of spans.slice(0, 20000)) {
      const open = el('button', { type: 'button', className: 'link' }, s.name || '(unnamed)');
      open.addEventListener('click', () => ctx.goto(s.begin));
      const item = el(
        'li',
        { role: 'treeitem', 'aria-level': s.depth + 1 },
        open,
        el('span', { className: 'muted' }, ` #${s.begin}${s.end !== null ? `–#${s.end}` : ' (not closed)'}`),
        s.startTime ? el('span', { className: 'muted' }, ` · ${s.startTime}${s.endTime ? ` → ${s.endTime}` : ''}`) : null,
      );
      item.style.paddingLeft = `${s.depth * 1.25}em`;
      tree.append(item);
    }
    panel.append(tree);
  },
};
