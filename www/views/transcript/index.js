// The Transcript view: the run (or the whole trace) read as a chat, every
// message in full, in a virtualised list of variable-height items built
// from what the worker prepares (page-data.js). Selecting an item selects
// its event for the whole viewer (the URL hash's `e=`, the event list), and
// the view opens on the selected event. Its own search (`/`) finds text in
// the core, jumps from match to match and opens the folded blocks that
// hold one. docs/transcript-view.md says what it shows and its security rules.

import { el } from '../../dom.js';
import { eventLink } from '../../events.js';
import { VariableList } from './vlist.js';
import { renderItem } from './item.js';
import { highlight, clearHighlights, reveal } from './search.js';
import { dollars } from '../stats.js';

/** Items of a sub-agent run shown where it was started; the rest through the run switcher. */
const SUBAGENT_ITEMS = 60;

function plural(n, word) {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

export const transcriptView = {
  id: 'transcript',
  label: 'Transcript',
  /** Traces with a conversation: any message. */
  available: (info) => (info.stats?.byKind?.message ?? 0) > 0,
  async render(panel, ctx) {
    const run = ctx.run ?? null;
    const runs = ctx.info.runs;
    const from = run === null ? 0 : runs[run].firstEvent;
    const count = run === null ? ctx.info.eventCount : runs[run].eventCount;
    const id = (part) => ctx.id(`transcript-${part}`);

    const search = el('input', { type: 'search', id: id('search'), placeholder: 'Search the transcript (/)', autocomplete: 'off', spellcheck: false, 'aria-label': 'Search the transcript' });
    const prev = el('button', { type: 'button', className: 'button small', id: id('prev'), title: 'Previous match (Shift+Enter)' }, '↑');
    const next = el('button', { type: 'button', className: 'button small', id: id('next'), title: 'Next match (Enter)' }, '↓');
    const status = el('span', { className: 'muted tr-search-status', id: id('search-status'), role: 'status', 'aria-live': 'polite' });
    const root = el('div', { className: 'tr-list', id: id('list'), tabIndex: 0, role: 'list', 'aria-label': 'Transcript' });
    panel.append(
      el(
        'div',
        { className: 'tr-bar' },
        el('h2', { className: 'view-title' }, run === null ? `Transcript · ${plural(count, 'event')}${runs.length > 1 ? ` in ${plural(runs.length, 'run')}` : ''}` : `Transcript of run #${run} · ${plural(count, 'event')}`),
        // Not a <form>: the page's forms are its own controls (the XSS suite counts them).
        el('div', { className: 'tr-search', role: 'search' }, search, prev, next, status),
      ),
      root,
    );

    let query = '';
    let hits = [];
    let hit = -1;
    /** The marks of the item shown and the current one among them. */
    let marks = [];
    let mark = -1;

    const subagent = (runIndex) => renderSubagent(ctx, runIndex, { subagent });
    const list = new VariableList(root, {
      estimate: 90,
      idPrefix: id('item'),
      fetchItems: (start, end) => ctx.call('transcriptPage', { run, start, count: end - start }),
      renderItem: (item) => {
        const node = renderItem(item, { subagent });
        if (query) highlight(node, query);
        return node;
      },
      skip: (pos) => list.itemAt(pos)?.nested === true,
      onSelect: (pos) => ctx.select(from + pos),
      onActivate: (pos) => ctx.goto(from + pos),
    });
    panel.list = list;
    panel.focusSearch = () => {
      search.focus();
      search.select();
    };
    root.addEventListener('click', (e) => {
      if (e.target.closest('a, button, summary, input')) return;
      const item = e.target.closest('.tr-item');
      if (item && !getSelection()?.toString()) list.select(Number(item.dataset.pos), { scroll: false });
    });

    /** Shows match `m` (-1: the last) of the `k`-th item holding one. */
    async function show(k, m = 0) {
      if (!hits.length) return;
      hit = (k + hits.length) % hits.length;
      const pos = hits[hit];
      list.scrollTo(pos);
      const node = await list.nodeWhenShown(pos);
      if (!node || hits[hit] !== pos) return;
      for (const old of root.querySelectorAll('mark.tr-hit.current')) old.classList.remove('current');
      marks = [...node.querySelectorAll('mark.tr-hit')];
      mark = marks.length ? (m < 0 ? marks.length - 1 : Math.min(m, marks.length - 1)) : -1;
      list.select(pos, { scroll: false });
      const where = `${(hit + 1).toLocaleString('en-US')} of ${plural(hits.length, 'item')}`;
      status.textContent = marks.length ? `match ${mark + 1} of ${marks.length} in item ${where}` : `item ${where} (the match is in a folded tree or cut text)`;
      if (mark < 0) return;
      reveal(marks[mark]);
      marks[mark].classList.add('current');
      list.render();
      marks[mark].scrollIntoView({ block: 'center' });
    }

    /** The next (`step` 1) or previous (-1) match: within the item, then the next item's. */
    function step(by) {
      if (!hits.length) return;
      const m = mark + by;
      if (mark >= 0 && m >= 0 && m < marks.length) {
        for (const old of root.querySelectorAll('mark.tr-hit.current')) old.classList.remove('current');
        mark = m;
        reveal(marks[mark]);
        marks[mark].classList.add('current');
        status.textContent = status.textContent.replace(/^match \d+/, `match ${mark + 1}`);
        list.render();
        marks[mark].scrollIntoView({ block: 'center' });
        return;
      }
      show(hit + by, by > 0 ? 0 : -1);
    }

    async function runSearch() {
      const text = search.value.trim();
      if (text === query && hits.length) return step(1);
      query = text;
      for (const node of list.nodes.values()) {
        clearHighlights(node);
        if (query) highlight(node, query);
      }
      hits = [];
      hit = -1;
      marks = [];
      mark = -1;
      if (!query) {
        status.textContent = '';
        return;
      }
      status.textContent = 'Searching…';
      const result = await ctx.call('transcriptSearch', { run, text: query });
      if (query !== text) return;
      hits = result.positions;
      if (!hits.length) {
        status.textContent = 'no match';
        return;
      }
      // The first match at or after the top of the screen.
      const at = hits.findIndex((p) => p >= list.anchor.index);
      await show(at < 0 ? 0 : at);
    }

    search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        if (e.shiftKey && hits.length && search.value.trim() === query) step(-1);
        else runSearch();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        root.focus();
      }
    });
    next.addEventListener('click', () => (search.value.trim() === query && hits.length ? step(1) : runSearch()));
    prev.addEventListener('click', () => step(-1));

    /** Brings event `index` (its item, or its call's for a result shown under it) to the top, selected. */
    panel.followSelection = async (index) => {
      const at = await ctx.call('transcriptLocate', { run, index });
      if (!at || !root.isConnected) return;
      list.scrollTo(at.position);
      list.nodes.get(list.selected)?.classList.remove('selected');
      list.selected = at.position;
      list.nodes.get(at.position)?.classList.add('selected');
    };
    list.reset(count);
    // Open on the selected event (a shared link, the event list's selection).
    const selected = ctx.selected();
    if (selected !== null) await panel.followSelection(selected);
  },
};

/** A sub-agent run, folded where its call is; opened, its first items and its usage. */
function renderSubagent(ctx, runIndex, { subagent }) {
  const run = ctx.info.runs[runIndex];
  if (!run) return null;
  const summary = el('summary', {}, `Sub-agent run #${runIndex}${run.name ? ` · ${run.name}` : ''} · ${plural(run.eventCount, 'event')}`);
  const body = el('div', { className: 'tr-subagent-body' });
  const box = el('details', { className: 'tr-subagent', 'data-run': runIndex }, summary, body);
  let built = false;
  box.addEventListener('toggle', async () => {
    if (!box.open || built) return;
    built = true;
    body.append(el('p', { className: 'muted' }, 'Loading…'));
    try {
      const [usage, items] = await Promise.all([
        ctx.call('runUsage', { run: runIndex }),
        ctx.call('transcriptPage', { run: runIndex, start: 0, count: SUBAGENT_ITEMS }),
      ]);
      if (usage?.tokens) summary.append(` · ${usage.tokens.toLocaleString('en-US')} tokens`);
      if (usage?.cost !== undefined) summary.append(` · ${dollars(usage.cost)} reported`);
      body.replaceChildren(...items.map((item) => el('div', { className: 'tr-item' }, renderItem(item, { subagent }))));
      if (run.eventCount > SUBAGENT_ITEMS) {
        body.append(el('p', { className: 'muted' }, `The first ${SUBAGENT_ITEMS} of ${plural(run.eventCount, 'event')}; pick run #${runIndex} in the run switcher for all of them, or go to its `, eventLink(run.firstEvent + SUBAGENT_ITEMS, 'next event'), '.'));
      }
    } catch (e) {
      body.replaceChildren(el('p', { className: 'load-error' }, `The sub-agent run did not load: ${e.message}`));
    }
  });
  return box;
}
