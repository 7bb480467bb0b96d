// A virtualised list: fixed row height, only the visible rows (plus a few)
// exist in the DOM, rows are fetched a page at a time from the worker. Works
// for millions of rows: past the browser's element-height limit the scroll
// range is scaled.

import { el, clear } from './dom.js';

const PAGE = 100;
const OVERSCAN = 8;
/** Browsers cap element heights (~33M px in Chromium); stay well below. */
const MAX_HEIGHT = 8_000_000;

export class VirtualList {
  /**
   * @param {HTMLElement} root scroll container (role=listbox)
   * @param {object} o
   * @param {number} o.rowHeight px
   * @param {string} o.idPrefix ids of the row elements: `${idPrefix}-${position}`
   * @param {(start: number, end: number) => Promise<any[]>} o.fetchRows rows for positions start..end
   * @param {(row: any, position: number) => Node} o.renderRow contents of one row
   * @param {(position: number) => void} [o.onSelect]
   * @param {(position: number) => void} [o.onActivate] click or Enter
   */
  constructor(root, o) {
    this.root = root;
    this.o = o;
    this.count = 0;
    this.selected = -1;
    this.pages = new Map();
    this.generation = 0;
    this.sizer = el('div', { className: 'vlist-sizer', 'aria-hidden': 'true' });
    this.layer = el('div', { className: 'vlist-layer' });
    root.append(this.sizer, this.layer);
    root.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(root);
    root.addEventListener('click', (e) => {
      if (e.target.closest('a, button')) return;
      const row = e.target.closest('[data-pos]');
      if (!row) return;
      const pos = Number(row.dataset.pos);
      if (this.o.onActivate) this.o.onActivate(pos);
      else this.select(pos, { scroll: false });
    });
  }

  /** Replaces the contents: `count` rows, nothing fetched yet. */
  reset(count) {
    this.count = count;
    this.generation++;
    this.pages.clear();
    this.selected = -1;
    this.root.removeAttribute('aria-activedescendant');
    this.root.scrollTop = 0;
    this.sizer.style.height = `${Math.min(count * this.o.rowHeight, MAX_HEIGHT)}px`;
    this.render();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Maps scrollTop to the list's virtual pixel offset (identity unless scaled). */
  virtualTop() {
    const total = this.count * this.o.rowHeight;
    const view = this.root.clientHeight;
    const s = this.root.scrollTop;
    if (total <= MAX_HEIGHT) return s;
    return (s / Math.max(1, MAX_HEIGHT - view)) * Math.max(0, total - view);
  }

  visibleRange() {
    const h = this.o.rowHeight;
    const v = this.virtualTop();
    const first = Math.max(0, Math.floor(v / h) - OVERSCAN);
    const last = Math.min(this.count, Math.ceil((v + this.root.clientHeight) / h) + OVERSCAN);
    return { first, last, v };
  }

  page(n) {
    let p = this.pages.get(n);
    if (p) return p;
    const generation = this.generation;
    const start = n * PAGE;
    p = { rows: null };
    this.pages.set(n, p);
    this.o
      .fetchRows(start, Math.min(this.count, start + PAGE))
      .then((rows) => {
        if (generation !== this.generation) return;
        p.rows = rows;
        this.schedule();
      })
      .catch(() => this.pages.delete(n));
    // Keep memory bounded on long scrolls.
    if (this.pages.size > 60) {
      const keep = new Set([n, n - 1, n + 1]);
      for (const k of this.pages.keys()) {
        if (this.pages.size <= 40) break;
        if (!keep.has(k)) this.pages.delete(k);
      }
    }
    return p;
  }

  render() {
    const { first, last, v } = this.visibleRange();
    const h = this.o.rowHeight;
    const s = this.root.scrollTop;
    const nodes = [];
    for (let pos = first; pos < last; pos++) {
      const page = this.page(Math.floor(pos / PAGE));
      const row = page.rows?.[pos % PAGE];
      const selected = pos === this.selected;
      const node = el(
        'div',
        {
          className: `vrow${selected ? ' selected' : ''}${row ? '' : ' loading'}`,
          id: `${this.o.idPrefix}-${pos}`,
          role: 'option',
          'aria-selected': String(selected),
          'aria-posinset': pos + 1,
          'aria-setsize': this.count,
          'data-pos': pos,
        },
        row ? this.o.renderRow(row, pos) : '…',
      );
      node.style.top = `${s + pos * h - v}px`;
      nodes.push(node);
    }
    clear(this.layer).append(...nodes);
    if (this.selected >= first && this.selected < last) {
      this.root.setAttribute('aria-activedescendant', `${this.o.idPrefix}-${this.selected}`);
    } else {
      this.root.removeAttribute('aria-activedescendant');
    }
  }

  /** Selects a position (clamped) and scrolls it into view. */
  select(pos, { scroll = true } = {}) {
    if (!this.count) return;
    pos = Math.max(0, Math.min(this.count - 1, pos));
    this.selected = pos;
    if (scroll) this.scrollTo(pos);
    this.render();
    this.o.onSelect?.(pos);
  }

  scrollTo(pos) {
    const h = this.o.rowHeight;
    const total = this.count * h;
    const view = this.root.clientHeight;
    const v = this.virtualTop();
    const y = pos * h;
    let target = null;
    if (y < v) target = y;
    else if (y + h > v + view) target = y + h - view;
    if (target === null) return;
    if (total > MAX_HEIGHT) target = (target / Math.max(1, total - view)) * (MAX_HEIGHT - view);
    this.root.scrollTop = target;
  }

  /** Rows per screen, for PageUp/PageDown. */
  pageSize() {
    return Math.max(1, Math.floor(this.root.clientHeight / this.o.rowHeight) - 1);
  }
}
