// The runs table: one row per run of a trace with more than one (an Inspect
// log's samples, a JSONL of runs, a Docent collection, a folder of files):
// id, scores, model, events, tool calls, failures, tokens, duration, error,
// plus metadata columns the user adds. Sortable by any column, filtered by
// the run query (`metadata.scores.accuracy:>0.5`), a summary line per score;
// virtualised, so 10,000 runs scroll as 10 do. Sort, filter and added
// columns live in the URL hash (`v.sort`, `v.q`, `v.cols`). Opening a row
// shows that run.

import { el, clear } from '../../dom.js';
import { VirtualList } from '../../vlist.js';
import { cellText, columnsFor, numericKind, parseSort, sortPositions } from './columns.js';
import { summaryLine } from './score-summary.js';

const ROW_HEIGHT = 30;

function columnTemplate(columns) {
  return columns.map((c) => (c.key === 'id' ? 'minmax(10em, 2fr)' : c.key === 'error' ? 'minmax(8em, 2fr)' : numericKind(c.kind) ? 'minmax(5em, 1fr)' : 'minmax(6em, 1fr)')).join(' ');
}

function renderCells(columns, row) {
  return columns.map((c) => {
    const value = c.get(row);
    const numeric = typeof value === 'number' || numericKind(c.kind);
    const cls = `runs-cell${numeric ? ' num' : ''}${c.key === 'failures' && value ? ' count-error' : ''}${c.key === 'error' && value ? ' runs-error' : ''}`;
    const text = cellText(value, c.kind);
    return el('span', { className: cls, role: 'gridcell', title: text.length > 30 ? text : undefined }, text);
  });
}

export const runsView = {
  id: 'runs',
  label: 'Runs',
  available: (info) => info.runCount > 1,
  async render(panel, ctx) {
    const rows = await ctx.call('runRows');
    const fields = (await ctx.call('filterableFields')).filter((f) => f.name !== 'text' && !f.name.startsWith('metadata.scores.'));
    const params = ctx.params();
    const state = {
      sort: parseSort(params.get('sort')),
      query: params.get('q') ?? '',
      extra: (params.get('cols') ?? '').split(',').filter((name) => fields.some((f) => f.name === name)),
      positions: rows.map((_, i) => i),
    };
    const fieldValues = new Map();
    for (const name of state.extra) fieldValues.set(name, await ctx.call('runFieldValues', { name }));
    let columns = columnsFor(rows, state.extra, fieldValues);

    const query = el('input', { type: 'search', id: ctx.id('runs-query'), className: 'runs-query', value: state.query, placeholder: 'filter runs: metadata.scores.accuracy:>0.5, id:…, text', 'aria-label': 'Filter runs' });
    const queryError = el('p', { className: 'load-error', id: ctx.id('runs-query-error'), role: 'alert', hidden: true });
    const add = el('select', { id: ctx.id('runs-add-column'), 'aria-label': 'Add a metadata column' }, el('option', { value: '' }, 'add a column…'), ...fields.map((f) => el('option', { value: f.name }, `${f.name.replace(/^metadata\./, '')} (${f.type})`)));
    const count = el('p', { className: 'muted', id: ctx.id('runs-count'), 'aria-live': 'polite' });
    const summaries = el('div', { className: 'score-summaries', id: ctx.id('runs-summaries') });
    const header = el('div', { className: 'runs-header', role: 'row' });
    const root = el('div', { className: 'vlist runs-list', id: ctx.id('runs-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Runs' });
    panel.append(
      el('h2', { className: 'visually-hidden' }, 'Runs'),
      el('div', { className: 'runs-controls' }, query, add),
      queryError,
      count,
      summaries,
      el('div', { className: 'runs-table', role: 'grid', 'aria-label': 'Runs table' }, header, root),
    );

    const save = () => ctx.setParams({ sort: state.sort ? `${state.sort.key}:${state.sort.dir < 0 ? 'desc' : 'asc'}` : null, q: state.query || null, cols: state.extra.join(',') || null });
    const list = new VirtualList(root, {
      rowHeight: ROW_HEIGHT,
      idPrefix: ctx.id('run-row'),
      fetchRows: async (start, end) => state.positions.slice(start, end).map((p) => rows[p]),
      renderRow: (row) => {
        const node = el('div', { className: 'runs-row', 'data-run': row.run }, ...renderCells(columns, row));
        node.style.gridTemplateColumns = columnTemplate(columns);
        return node;
      },
      onActivate: (pos) => {
        const row = rows[state.positions[pos]];
        if (row) ctx.openRun(row.run);
      },
    });
    panel.list = list;

    const renderHeader = () => {
      header.style.gridTemplateColumns = columnTemplate(columns);
      clear(header).append(...columns.map((c) => {
        const sorted = state.sort?.key === c.key ? state.sort.dir : 0;
        const button = el('button', { type: 'button', className: 'runs-sort', 'data-column': c.key }, c.label, sorted ? (sorted > 0 ? ' ▲' : ' ▼') : '');
        button.addEventListener('click', () => {
          state.sort = sorted > 0 ? { key: c.key, dir: -1 } : sorted < 0 ? null : { key: c.key, dir: c.kind === 'text' ? 1 : -1 };
          refresh();
          save();
        });
        const numeric = numericKind(c.kind) || (c.kind === 'score' && typeof rows.map(c.get).find((v) => v !== null) === 'number');
        const cell = el('span', { className: `runs-head${numeric ? ' num' : ''}`, role: 'columnheader', 'aria-sort': sorted > 0 ? 'ascending' : sorted < 0 ? 'descending' : 'none' }, button);
        if (c.kind === 'field') {
          const remove = el('button', { type: 'button', className: 'link runs-remove', title: `remove the column ${c.label}`, 'aria-label': `remove the column ${c.label}` }, '×');
          remove.addEventListener('click', () => {
            state.extra = state.extra.filter((name) => `field:${name}` !== c.key);
            columns = columnsFor(rows, state.extra, fieldValues);
            if (state.sort?.key === c.key) state.sort = null;
            refresh();
            save();
          });
          cell.append(remove);
        }
        return cell;
      }));
    };

    const refresh = async () => {
      let positions = rows.map((_, i) => i);
      queryError.hidden = true;
      if (state.query.trim()) {
        try {
          const wanted = new Set(await ctx.call('filterRuns', { query: state.query.trim() }));
          positions = positions.filter((p) => wanted.has(rows[p].run));
        } catch (e) {
          queryError.textContent = e.message;
          queryError.hidden = false;
        }
      }
      const column = columns.find((c) => c.key === state.sort?.key);
      state.positions = sortPositions(positions, rows, column, state.sort?.dir ?? 1);
      count.textContent = `${state.positions.length.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} runs${state.query.trim() ? ' match the filter' : ''}. Click a run (or select it and press Enter) to open it.`;
      const shown = state.positions.map((p) => rows[p]);
      clear(summaries).append(...columns.filter((c) => c.kind === 'score').map((c) => summaryLine(c.label, shown.map((r) => c.get(r)))));
      renderHeader();
      list.reset(state.positions.length);
    };

    let timer = 0;
    query.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.query = query.value;
        refresh().then(save);
      }, 200);
    });
    add.addEventListener('change', async () => {
      const name = add.value;
      add.value = '';
      if (!name || state.extra.includes(name)) return;
      fieldValues.set(name, await ctx.call('runFieldValues', { name }));
      state.extra.push(name);
      columns = columnsFor(rows, state.extra, fieldValues);
      await refresh();
      save();
    });
    await refresh();
  },
};
