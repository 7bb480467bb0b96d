// Compare: two runs of the trace side by side, aligned turn by turn by the
// core (`trace.compareRuns(a, b)`, analysis::compare: an alignment on the
// roles and tool names of the steps, so an inserted step is a gap, not a
// shift of everything below). A header gives the two runs' rows (scores,
// tokens, tool calls, failures, duration) with what differs marked; each
// row of the list shows the step on each side, colour-coded by change;
// clicking a side opens that event. The two runs are in the hash (v.a, v.b).

import { el, clear } from '../dom.js';
import { VirtualList } from '../vlist.js';
import { cellText } from './runs/columns.js';

const MARKS = { same: ' ', changed: '~', removed: '−', added: '+' };

function runLabel(r) {
  return `#${r.index} ${r.id}${r.name ? ` · ${r.name}` : ''}`;
}

/** The runs' facts side by side, differing ones marked. */
function deltaTable(left, right) {
  const scoreNames = [...new Set([...Object.keys(left.scores), ...Object.keys(right.scores)])].sort();
  const facts = [
    ...scoreNames.map((n) => [`score ${n}`, left.scores[n] ?? null, right.scores[n] ?? null, 'score']),
    ['model', left.model ?? null, right.model ?? null, 'text'],
    ['events', left.events, right.events, 'number'],
    ['tool calls', left.toolCalls, right.toolCalls, 'number'],
    ['failures', left.failures, right.failures, 'number'],
    ['tokens', left.tokens, right.tokens, 'number'],
    ['duration', left.durationSeconds ?? null, right.durationSeconds ?? null, 'seconds'],
    ['error', left.error ?? null, right.error ?? null, 'text'],
  ];
  return el(
    'table',
    { className: 'tools compare-deltas' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, ''), el('th', { scope: 'col' }, 'left'), el('th', { scope: 'col' }, 'right'), el('th', { scope: 'col' }, 'Δ'))),
    el('tbody', {}, ...facts.map(([name, a, b, kind]) => {
      const differs = a !== b;
      const delta = differs && typeof a === 'number' && typeof b === 'number' ? `${b > a ? '+' : ''}${cellText(b - a, kind)}` : '';
      return el('tr', { className: differs ? 'differs' : '', 'data-fact': name }, el('th', { scope: 'row' }, name), el('td', {}, cellText(a, kind) || '—'), el('td', {}, cellText(b, kind) || '—'), el('td', { className: 'num' }, delta));
    })),
  );
}

export const compareView = {
  id: 'compare',
  label: 'Compare',
  available: (info) => info.runCount > 1,
  async render(panel, ctx) {
    const runs = ctx.info.runs;
    const params = ctx.params();
    const valid = (n) => Number.isInteger(n) && n >= 0 && n < runs.length;
    let a = Number(params.get('a') ?? ctx.run ?? 0);
    let b = Number(params.get('b') ?? (a + 1) % runs.length);
    if (!valid(a)) a = 0;
    if (!valid(b)) b = a === 0 ? 1 : 0;
    const picker = (id, value, label) => el('select', { id: ctx.id(id), 'aria-label': label }, ...runs.map((r, i) => el('option', { value: String(i), selected: i === value }, runLabel({ ...r, index: i }))));
    const left = picker('compare-left', a, 'Left run');
    const right = picker('compare-right', b, 'Right run');
    const summary = el('p', { className: 'muted', id: ctx.id('compare-summary'), 'aria-live': 'polite' });
    const deltas = el('div', { id: ctx.id('compare-deltas') });
    const root = el('div', { className: 'vlist compare-list', id: ctx.id('compare-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Aligned steps' });
    panel.append(el('h2', { className: 'visually-hidden' }, 'Compare two runs'), el('div', { className: 'runs-controls' }, el('label', {}, 'Left ', left), el('label', {}, 'Right ', right)), summary, deltas, root);

    let steps = [];
    const list = new VirtualList(root, {
      rowHeight: 30,
      idPrefix: ctx.id('compare-row'),
      fetchRows: async (start, end) => {
        const slice = steps.slice(start, end);
        const indices = [...new Set(slice.flatMap((s) => [s.left, s.right]).filter((i) => i !== undefined))];
        const rows = indices.length ? await ctx.call('rowsAt', { indices }) : [];
        const byIndex = new Map(rows.map((r) => [r.index, r]));
        return slice.map((s) => ({ ...s, l: byIndex.get(s.left), r: byIndex.get(s.right) }));
      },
      renderRow: (s) => {
        const side = (row, which) => {
          if (!row) return el('span', { className: 'compare-side compare-gap' }, '');
          const link = el('button', { type: 'button', className: 'link compare-side', 'data-event': row.index, title: `open event #${row.index}` }, `#${row.index} `, row.summary);
          link.addEventListener('click', () => ctx.goto(row.index));
          link.dataset.side = which;
          return link;
        };
        return el('div', { className: `compare-row change-${s.change}`, 'data-change': s.change }, el('span', { className: 'compare-mark', 'aria-label': s.change }, MARKS[s.change]), side(s.l, 'left'), side(s.r, 'right'));
      },
    });
    panel.list = list;

    // A later pick supersedes an earlier one still in flight: only the
    // newest comparison is shown, whatever order the answers arrive in.
    let generation = 0;
    const refresh = async () => {
      const mine = ++generation;
      const c = await ctx.call('compareRuns', { a, b });
      if (mine !== generation) return;
      steps = c.steps;
      summary.textContent = `${c.same.toLocaleString('en-US')} same, ${c.changed.toLocaleString('en-US')} changed, ${c.removed.toLocaleString('en-US')} only left, ${c.added.toLocaleString('en-US')} only right${c.approximate ? ' (too long to align: the middle is paired by position)' : ''}.`;
      clear(deltas).append(deltaTable(c.left, c.right));
      list.reset(steps.length);
    };
    const pick = () => {
      a = Number(left.value);
      b = Number(right.value);
      ctx.setParams({ a: String(a), b: String(b) });
      refresh();
    };
    left.addEventListener('change', pick);
    right.addEventListener('change', pick);
    await refresh();
  },
};
