// Compare: two runs of the trace side by side, aligned turn by turn by the
// core (`trace.compareRuns(a, b)`, analysis::compare: an alignment on the
// roles and tool names of the steps, so an inserted step is a gap, not a
// shift of everything below). A header gives the two runs' rows (scores,
// tokens, tool calls, failures, duration) with what differs marked; each
// row of the list shows the step on each side, colour-coded by change;
// clicking a side opens that event. The two runs are in the hash (v.a, v.b).
//
// "Compare with another file…": the right side's runs come from a second
// file the user picks, parsed by the worker next to the shown trace and
// compared by the core (`trace.compareRunsWith(other, a, b)`). A file cannot
// be reopened from a link, so the hash records only its name (v.other): a
// link opened later says which file the right side was and asks for it.

import { el, clear } from '../dom.js';
import { VirtualList } from '../vlist.js';
import { cellText } from './runs/columns.js';

const MARKS = { same: ' ', changed: '~', removed: '−', added: '+' };

function runLabel(r) {
  return `#${r.index} ${r.id}${r.name ? ` · ${r.name}` : ''}`;
}

/** The runs' facts side by side, differing ones marked; `names` head the two columns. */
function deltaTable(left, right, names = ['left', 'right']) {
  const scoreNames = [...new Set([...Object.keys(left.scores), ...Object.keys(right.scores)])].sort();
  const facts = [
    ...scoreNames.map((n) => [`score ${n}`, left.scores[n] ?? null, right.scores[n] ?? null, 'score']),
    ['model', left.model ?? null, right.model ?? null, 'text'],
    ['events', left.events, right.events, 'number'],
    ['tool calls', left.toolCalls, right.toolCalls, 'number'],
    ['failures', left.failures, right.failures, 'number'],
    ['tokens', left.tokens, right.tokens, 'number'],
    ...(left.cost !== undefined || right.cost !== undefined ? [['cost', left.cost ?? null, right.cost ?? null, 'dollars']] : []),
    ['duration', left.durationSeconds ?? null, right.durationSeconds ?? null, 'seconds'],
    ['error', left.error ?? null, right.error ?? null, 'text'],
  ];
  return el(
    'table',
    { className: 'tools compare-deltas' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, ''), el('th', { scope: 'col' }, names[0]), el('th', { scope: 'col' }, names[1]), el('th', { scope: 'col' }, 'Δ'))),
    el('tbody', {}, ...facts.map(([name, a, b, kind]) => {
      const differs = a !== b;
      const delta = differs && typeof a === 'number' && typeof b === 'number' ? `${b > a ? '+' : ''}${cellText(b - a, kind)}` : '';
      return el('tr', { className: differs ? 'differs' : '', 'data-fact': name }, el('th', { scope: 'row' }, name), el('td', {}, cellText(a, kind) || '—'), el('td', {}, cellText(b, kind) || '—'), el('td', { className: 'num' }, delta));
    })),
  );
}

/** The other file compared with, per shown trace (kept while the trace is: the tab can be left and shown again). */
const otherFiles = new WeakMap();

export const compareView = {
  id: 'compare',
  label: 'Compare',
  // One run can still be compared with a run of another file.
  available: (info) => info.runCount >= 1,
  async render(panel, ctx) {
    const params = ctx.params();
    let other = otherFiles.get(ctx.info) ?? null;
    const leftRuns = ctx.info.runs;
    const rightRuns = () => (other ? other.runs : leftRuns);
    const valid = (n, runs) => Number.isInteger(n) && n >= 0 && n < runs.length;
    let a = Number(params.get('a') ?? ctx.run ?? 0);
    let b = Number(params.get('b') ?? (other ? 0 : (a + 1) % leftRuns.length));
    if (!valid(a, leftRuns)) a = 0;
    if (!valid(b, rightRuns())) b = other || a !== 0 ? 0 : Math.min(1, leftRuns.length - 1);
    const options = (runs, value) => runs.map((r, i) => el('option', { value: String(i), selected: i === value }, runLabel({ ...r, index: i })));
    const left = el('select', { id: ctx.id('compare-left'), 'aria-label': 'Left run' }, ...options(leftRuns, a));
    const right = el('select', { id: ctx.id('compare-right'), 'aria-label': 'Right run' });
    const fileInput = el('input', { id: ctx.id('compare-file-input'), className: 'visually-hidden file-input', type: 'file', accept: '.json,.jsonl,.ndjson,.gz,application/json' });
    const fileLabel = el('label', { className: 'button', htmlFor: fileInput.id }, 'Compare with another file…');
    const back = el('button', { id: ctx.id('compare-back'), type: 'button', className: 'button' }, 'Back to runs of this file');
    const source = el('span', { id: ctx.id('compare-source'), className: 'muted' });
    const notice = el('p', { id: ctx.id('compare-notice'), className: 'notice', hidden: true });
    const summary = el('p', { className: 'muted', id: ctx.id('compare-summary'), 'aria-live': 'polite' });
    const deltas = el('div', { id: ctx.id('compare-deltas') });
    const root = el('div', { className: 'vlist compare-list', id: ctx.id('compare-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Aligned steps' });
    panel.append(
      el('h2', { className: 'visually-hidden' }, 'Compare two runs'),
      el('div', { className: 'runs-controls' }, el('label', {}, 'Left ', left), el('label', {}, 'Right ', right), source, fileInput, fileLabel, back),
      notice,
      summary,
      deltas,
      root,
    );

    let steps = [];
    const list = new VirtualList(root, {
      rowHeight: 30,
      idPrefix: ctx.id('compare-row'),
      fetchRows: async (start, end) => {
        const slice = steps.slice(start, end);
        const rightId = other?.traceId;
        const fetch = async (traceId, indices) => (indices.length ? ctx.call('rowsAt', { ...(traceId === undefined ? {} : { traceId }), indices }) : []);
        const leftRows = await fetch(undefined, [...new Set(slice.map((s) => s.left).filter((i) => i !== undefined))]);
        const rightIndices = [...new Set(slice.map((s) => s.right).filter((i) => i !== undefined))];
        const rightRows = rightId === undefined ? leftRows.concat(await fetch(undefined, rightIndices)) : await fetch(rightId, rightIndices);
        const l = new Map(leftRows.map((r) => [r.index, r]));
        const r = new Map(rightRows.map((row) => [row.index, row]));
        return slice.map((s) => ({ ...s, l: l.get(s.left), r: r.get(s.right) }));
      },
      renderRow: (s) => {
        const side = (row, which) => {
          if (!row) return el('span', { className: 'compare-side compare-gap' }, '');
          // An event of the other file cannot be opened here: it is shown, not linked.
          if (which === 'right' && other) return el('span', { className: 'compare-side', 'data-event': row.index, 'data-side': which, title: `event #${row.index} of ${other.name}` }, `#${row.index} `, row.summary);
          const link = el('button', { type: 'button', className: 'link compare-side', 'data-event': row.index, title: `open event #${row.index}` }, `#${row.index} `, row.summary);
          link.addEventListener('click', () => ctx.goto(row.index));
          link.dataset.side = which;
          return link;
        };
        return el('div', { className: `compare-row change-${s.change}`, 'data-change': s.change }, el('span', { className: 'compare-mark', 'aria-label': s.change }, MARKS[s.change]), side(s.l, 'left'), side(s.r, 'right'));
      },
    });
    panel.list = list;

    /** The right side's picker and the note saying where its runs come from. */
    const showSource = () => {
      clear(right).append(...options(rightRuns(), b));
      source.textContent = other ? `right side: ${other.name} (${other.format}, ${other.runs.length} run${other.runs.length === 1 ? '' : 's'})` : '';
      back.hidden = !other || leftRuns.length < 2;
      ctx.setParams({ a: String(a), b: String(b), other: other?.name ?? null });
    };
    const canCompare = () => other || leftRuns.length > 1;

    // A later pick supersedes an earlier one still in flight: only the
    // newest comparison is shown, whatever order the answers arrive in.
    let generation = 0;
    const refresh = async () => {
      const mine = ++generation;
      if (!canCompare()) {
        summary.textContent = 'This trace has one run: compare it with a run of another file.';
        clear(deltas);
        steps = [];
        list.reset(0);
        return;
      }
      const c = other ? await ctx.call('compareRunsWith', { otherId: other.traceId, a, b }) : await ctx.call('compareRuns', { a, b });
      if (mine !== generation) return;
      steps = c.steps;
      summary.textContent = `${c.same.toLocaleString('en-US')} same, ${c.changed.toLocaleString('en-US')} changed, ${c.removed.toLocaleString('en-US')} only left, ${c.added.toLocaleString('en-US')} only right${c.approximate ? ' (too long to align: the middle is paired by position)' : ''}.`;
      clear(deltas).append(deltaTable(c.left, c.right, other ? [ctx.info.name, other.name] : undefined));
      list.reset(steps.length);
    };
    const pick = () => {
      a = Number(left.value);
      b = Number(right.value);
      ctx.setParams({ a: String(a), b: String(b), other: other?.name ?? null });
      refresh();
    };
    left.addEventListener('change', pick);
    right.addEventListener('change', pick);
    fileInput.addEventListener('change', async () => {
      const file = fileInput.files?.[0];
      fileInput.value = '';
      if (!file) return;
      summary.textContent = `Reading ${file.name}…`;
      try {
        const info = await ctx.call('parseFile', { file, name: file.name });
        const previous = other;
        other = { traceId: info.traceId, name: file.name, format: info.format, runs: info.runs };
        otherFiles.set(ctx.info, other);
        if (previous) ctx.call('free', { traceId: previous.traceId }).catch(() => {});
        notice.hidden = true;
        b = 0;
        showSource();
        await refresh();
      } catch (e) {
        summary.textContent = `${file.name} could not be read: ${e.message}`;
      }
    });
    back.addEventListener('click', () => {
      if (other) ctx.call('free', { traceId: other.traceId }).catch(() => {});
      other = null;
      otherFiles.delete(ctx.info);
      b = a === 0 ? 1 : 0;
      showSource();
      refresh();
    });
    // A link that compared with another file: the file is not in the link, only its name.
    const wanted = params.get('other');
    if (wanted && !other) {
      notice.textContent = `This link compared with run #${b} of another file, ${wanted}, which a link cannot reopen: pick it again with “Compare with another file…”. Meanwhile both sides are runs of this file.`;
      notice.hidden = false;
    }
    showSource();
    await refresh();
  },
};
