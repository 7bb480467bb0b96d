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

/** Columns a run whose body is not read yet does not know (see columns.js). */
const PENDING_KEYS = new Set(['events', 'toolCalls', 'failures', 'tokens', 'duration']);

function renderCells(columns, row) {
  return columns.map((c) => {
    const value = c.get(row);
    const numeric = typeof value === 'number' || numericKind(c.kind);
    const cls = `runs-cell${numeric ? ' num' : ''}${c.key === 'failures' && value ? ' count-error' : ''}${c.key === 'error' && value ? ' runs-error' : ''}`;
    if (row.pending && value === null && PENDING_KEYS.has(c.key)) {
      return el('span', { className: `${cls} num pending`, role: 'gridcell', title: 'not read yet: open the run to read its sample' }, '…');
    }
    const text = cellText(value, c.kind);
    return el('span', { className: cls, role: 'gridcell', title: text.length > 30 ? text : undefined }, text);
  });
}

/**
 * A lazily opened archive's search over its runs' bodies (the worker's
 * `searchBodies`: each sample read from the file, searched, dropped): the
 * runs with matches, their counts, and a button to show them in the table.
 */
function bodySearch(ctx, onFound) {
  const input = el('input', { type: 'search', id: ctx.id('runs-body-query'), className: 'runs-query', placeholder: 'search every sample’s messages and events (reads them from the file)', 'aria-label': 'Search the samples' });
  const go = el('button', { type: 'button', id: ctx.id('runs-body-search') }, 'Search samples');
  const status = el('p', { className: 'muted', id: ctx.id('runs-body-status'), 'aria-live': 'polite' });
  const run = async () => {
    const text = input.value.trim();
    if (!text) return onFound(null, '');
    go.disabled = true;
    status.textContent = 'Searching the samples…';
    const t0 = performance.now();
    try {
      const query = /^[\w.-]+:|["()]/.test(text) ? text : JSON.stringify(text);
      const r = await ctx.call('searchBodies', { query }, [], (p) => {
        status.textContent = `Searching the samples… ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} read`;
      });
      const events = r.runs.reduce((n, x) => n + x.matches, 0);
      status.textContent = `${r.runs.length.toLocaleString('en-US')} runs match (${events.toLocaleString('en-US')} events); ${r.bodiesRead.toLocaleString('en-US')} samples read from the file in ${((performance.now() - t0) / 1000).toFixed(1)} s. Open a run to see its matches.`;
      onFound(new Set(r.runs.map((x) => x.run)), query);
    } catch (e) {
      status.textContent = `The search failed: ${e.message}`;
    } finally {
      go.disabled = false;
    }
  };
  go.addEventListener('click', run);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') run();
  });
  return { node: el('div', { className: 'runs-body-search' }, el('div', { className: 'runs-controls' }, input, go), status), input };
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
    // An archive opened lazily: the samples' bodies are searched from the file.
    const lazy = ctx.info.lazy
      ? bodySearch(ctx, (runs, q) => {
          state.bodyRuns = runs;
          state.bodyQuery = q;
          refresh();
        })
      : null;
    const lazyNote = ctx.info.lazy
      ? el('p', { className: 'muted lazy-note', id: ctx.id('runs-lazy-note') }, `Opened lazily (${(ctx.info.lazy.fileBytes / 1048576).toFixed(0)} MB): ${ctx.info.lazy.pendingRuns.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} samples are read from the file when opened or searched; “…” is what a sample's own events tell.`)
      : null;
    panel.append(
      el('h2', { className: 'visually-hidden' }, 'Runs'),
      lazyNote,
      el('div', { className: 'runs-controls' }, query, add),
      lazy?.node ?? null,
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
        // After a search of the samples, the run opens on its matches.
        if (row && state.bodyRuns && state.bodyQuery) ctx.openRunWithQuery(row.run, state.bodyQuery);
        else if (row) ctx.openRun(row.run);
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
      if (state.bodyRuns) positions = positions.filter((p) => state.bodyRuns.has(rows[p].run));
      const column = columns.find((c) => c.key === state.sort?.key);
      state.positions = sortPositions(positions, rows, column, state.sort?.dir ?? 1);
      count.textContent = `${state.positions.length.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} runs${state.query.trim() ? ' match the filter' : ''}${state.bodyRuns ? `${state.query.trim() ? ' and' : ''} match the search of the samples` : ''}. Click a run (or select it and press Enter) to open it.`;
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
