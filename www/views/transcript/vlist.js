// A virtualised list with variable row heights, for the transcript: only
// the items near the screen exist in the DOM; each is measured once shown
// and its height kept in a Fenwick tree, so that the offset of any item
// and the item at any offset cost O(log n) among millions. Items are
// fetched a page at a time and their nodes kept (bounded), so that what the
// user opened inside one stays open while it is near. The scroll position
// is held as an anchor (the item at the top and how far into it), so that
// items above changing height do not move what is on screen. Past the
// browser's element-height limit the scroll range is scaled.

import { el } from '../../dom.js';

const PAGE = 40;
/** Items built above the anchor and below the screen. */
const OVERSCAN = 3;
/** Extra pixels below the screen filled with items. */
const MARGIN = 600;
const MAX_HEIGHT = 8_000_000;
/** Milliseconds of item building per frame; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 25;
/** Item nodes kept for reuse (those on screen always are). */
const KEPT_NODES = 300;

/** Sums of heights by prefix (Fenwick tree over float heights). */
class Heights {
  constructor(count, estimate) {
    this.n = count;
    this.h = new Float64Array(count).fill(estimate);
    this.tree = new Float64Array(count + 1);
    for (let i = 1; i <= count; i++) {
      this.tree[i] += estimate;
      const j = i + (i & -i);
      if (j <= count) this.tree[j] += this.tree[i];
    }
  }
  get(i) {
    return this.h[i];
  }
  set(i, value) {
    const d = value - this.h[i];
    if (d === 0) return false;
    this.h[i] = value;
    for (let j = i + 1; j <= this.n; j += j & -j) this.tree[j] += d;
    return true;
  }
  /** Sum of heights of items 0..i-1. */
  offset(i) {
    let s = 0;
    for (let j = i; j > 0; j -= j & -j) s += this.tree[j];
    return s;
  }
  total() {
    return this.offset(this.n);
  }
  /** The item at pixel offset `y` (the last one past the end). */
  find(y) {
    let pos = 0;
    let rest = y;
    let step = 1;
    while (step * 2 <= this.n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && this.tree[next] <= rest) {
        pos = next;
        rest -= this.tree[next];
      }
    }
    return Math.min(pos, Math.max(0, this.n - 1));
  }
}

export class VariableList {
  /**
   * @param {HTMLElement} root scroll container
   * @param {object} o
   * @param {number} o.estimate px of an item not yet measured
   * @param {(start: number, end: number) => Promise<any[]>} o.fetchItems
   * @param {(item: any, position: number) => Node} o.renderItem
   * @param {(position: number) => void} [o.onSelect]
   * @param {(position: number) => void} [o.onActivate] Enter on the selected item
   * @param {(position: number) => boolean} [o.skip] items selection steps over
   * @param {string} o.idPrefix
   */
  constructor(root, o) {
    this.root = root;
    this.o = o;
    this.count = 0;
    this.selected = -1;
    this.pages = new Map();
    this.nodes = new Map();
    this.generation = 0;
    this.anchor = { index: 0, delta: 0 };
    this.sizer = el('div', { className: 'vlist-sizer', 'aria-hidden': 'true' });
    this.layer = el('div', { className: 'tr-layer', role: 'presentation' });
    root.append(this.sizer, this.layer);
    root.addEventListener('scroll', () => {
      if (this.ignoreScroll) {
        this.ignoreScroll = false;
        return;
      }
      this.anchorFromScroll();
      this.schedule();
    }, { passive: true });
    new ResizeObserver(() => this.schedule()).observe(root);
    // An item growing or shrinking (a block opened, an image loaded) is measured again.
    new ResizeObserver(() => this.schedule()).observe(this.layer);
  }

  reset(count) {
    this.count = count;
    this.generation++;
    this.pages.clear();
    this.nodes.clear();
    this.selected = -1;
    this.heights = new Heights(count, this.o.estimate);
    this.anchor = { index: 0, delta: 0 };
    this.root.scrollTop = 0;
    this.render();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  scaled() {
    return this.heights.total() > MAX_HEIGHT;
  }

  /** Virtual offset ↔ scrollTop (identity unless scaled). */
  toVirtual(s) {
    const total = this.heights.total();
    const view = this.root.clientHeight;
    return total <= MAX_HEIGHT ? s : (s / Math.max(1, MAX_HEIGHT - view)) * Math.max(0, total - view);
  }
  toScroll(y) {
    const total = this.heights.total();
    const view = this.root.clientHeight;
    return total <= MAX_HEIGHT ? y : (y / Math.max(1, total - view)) * (MAX_HEIGHT - view);
  }

  anchorFromScroll() {
    if (!this.count) return;
    const y = this.toVirtual(this.root.scrollTop);
    const index = this.heights.find(y);
    this.anchor = { index, delta: y - this.heights.offset(index) };
  }

  page(n) {
    let p = this.pages.get(n);
    if (p) return p;
    const generation = this.generation;
    const start = n * PAGE;
    p = { items: null };
    this.pages.set(n, p);
    this.o
      .fetchItems(start, Math.min(this.count, start + PAGE))
      .then((items) => {
        if (generation !== this.generation) return;
        p.items = items;
        this.schedule();
      })
      .catch(() => this.pages.delete(n));
    if (this.pages.size > 40) {
      for (const k of this.pages.keys()) {
        if (this.pages.size <= 30) break;
        if (Math.abs(k - n) > 2) this.pages.delete(k);
      }
    }
    return p;
  }

  /** The item at `pos` when fetched (undefined while loading). */
  itemAt(pos) {
    return this.page(Math.floor(pos / PAGE)).items?.[pos % PAGE];
  }

  node(pos) {
    let item = this.itemAt(pos);
    let node = this.nodes.get(pos);
    if (node && (node.dataset.loading !== 'true' || !item)) return node;
    // Past this frame's budget, an item waits as a placeholder for the next frame (a jump
    // brings a screenful of new items at once; building them all in one task could take long).
    if (item && performance.now() > this.deadline) {
      this.behind = true;
      if (node) return node;
      item = undefined;
    }
    node = el('div', { className: 'tr-item', role: 'listitem', id: `${this.o.idPrefix}-${pos}`, 'data-pos': pos, 'data-loading': item ? 'false' : 'true' });
    node.append(item ? this.o.renderItem(item, pos) : el('div', { className: 'tr-loading muted' }, '…'));
    node.classList.toggle('selected', pos === this.selected);
    this.nodes.set(pos, node);
    return node;
  }

  render() {
    // A list whose view was replaced (a new render) does nothing more, nor one hidden
    // behind another tab (it is measured again when shown: the ResizeObserver fires).
    if (!this.root.isConnected || !this.root.getClientRects().length) return;
    if (!this.count) {
      this.layer.replaceChildren();
      this.sizer.style.height = '0px';
      return;
    }
    const view = this.root.clientHeight;
    const { index: anchor } = this.anchor;
    // Near the end the list cannot scroll the anchor to the top of the screen: the
    // screen starts above it, and the items there are built too (only the overscan
    // was: a jump to the last event left the top of the screen blank).
    const wanted = this.heights.offset(anchor) + this.anchor.delta;
    const screenStart = Math.min(wanted, Math.max(0, this.heights.total() - view));
    const atTop = screenStart < wanted ? Math.min(anchor, this.heights.find(screenStart)) : anchor;
    const first = Math.max(0, atTop - OVERSCAN);
    const shown = [];
    for (let pos = first; pos < anchor; pos++) shown.push(pos);
    let filled = -this.anchor.delta;
    let pos = anchor;
    for (; pos < this.count && filled < view + MARGIN; pos++) {
      shown.push(pos);
      filled += this.heights.get(pos);
    }
    for (let k = 0; k < OVERSCAN && pos < this.count; k++, pos++) shown.push(pos);
    // Build from the anchor down first, then the overscan above it.
    this.deadline = performance.now() + FRAME_BUDGET_MS;
    this.behind = false;
    const built = new Map();
    for (const p of [...shown.filter((p) => p >= anchor), ...shown.filter((p) => p < anchor)]) built.set(p, this.node(p));
    const nodes = shown.map((p) => built.get(p));
    this.layer.replaceChildren(...nodes);
    // Measure (one layout for all), keep the heights, and put the anchor back where it was on screen.
    shown.forEach((p, k) => this.heights.set(p, nodes[k].offsetHeight));
    const total = this.heights.total();
    this.sizer.style.height = `${Math.min(total, MAX_HEIGHT)}px`;
    const y = Math.min(this.heights.offset(anchor) + this.anchor.delta, Math.max(0, total - view));
    // Measured taller than estimated, the items above may not reach the screen's top yet.
    if (this.heights.offset(first) > y + 1) this.schedule();
    const s = Math.round(this.toScroll(y));
    if (Math.abs(this.root.scrollTop - s) >= 1) {
      this.ignoreScroll = true;
      this.root.scrollTop = s;
      if (Math.abs(this.root.scrollTop - s) >= 1) this.ignoreScroll = false;
    }
    const top = this.root.scrollTop + this.heights.offset(first) - y;
    this.layer.style.top = `${top}px`;
    this.prune(new Set(shown));
    if (this.behind) this.schedule();
  }

  prune(shown) {
    if (this.nodes.size <= KEPT_NODES) return;
    const a = this.anchor.index;
    const far = [...this.nodes.keys()].filter((p) => !shown.has(p)).sort((x, y) => Math.abs(y - a) - Math.abs(x - a));
    for (const p of far.slice(0, this.nodes.size - KEPT_NODES)) this.nodes.delete(p);
  }

  /** Brings item `pos` to the top of the screen (`offset` px into it). */
  scrollTo(pos, offset = 0) {
    if (!this.count) return;
    pos = Math.max(0, Math.min(this.count - 1, pos));
    this.anchor = { index: pos, delta: offset };
    this.render();
  }

  /** Scrolls so that item `pos` is on screen, if it is not. */
  reveal(pos) {
    const node = this.nodes.get(pos);
    if (node?.isConnected) {
      const r = node.getBoundingClientRect();
      const v = this.root.getBoundingClientRect();
      if (r.top >= v.top && r.top < v.bottom - 20) return;
    }
    this.scrollTo(pos);
  }

  select(pos, { scroll = true } = {}) {
    if (!this.count) return;
    pos = Math.max(0, Math.min(this.count - 1, pos));
    // Items that show nothing (a result shown under its call) are stepped over.
    const dir = pos >= this.selected ? 1 : -1;
    while (this.o.skip?.(pos) && pos + dir >= 0 && pos + dir < this.count) pos += dir;
    this.nodes.get(this.selected)?.classList.remove('selected');
    this.selected = pos;
    this.nodes.get(pos)?.classList.add('selected');
    if (scroll) this.reveal(pos);
    this.o.onSelect?.(pos);
  }

  /** Items per screen, for PageUp/PageDown. */
  pageSize() {
    return Math.max(1, Math.floor(this.root.clientHeight / this.o.estimate));
  }

  /** The item node at `pos` once it is built and on screen (after a scroll to it). */
  async nodeWhenShown(pos) {
    for (let i = 0; i < 100; i++) {
      const node = this.nodes.get(pos);
      if (node?.isConnected && node.dataset.loading === 'false') return node;
      await new Promise((r) => requestAnimationFrame(r));
      this.render();
    }
    return null;
  }
}
