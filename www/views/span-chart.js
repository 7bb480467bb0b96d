// The span chart: every span as a bar at its start and duration
// (`trace.spanBars()`, analysis::span_bars), nested by depth, runs stacked;
// a run without spans (a coding-agent session, a chat log) drawn from its
// tool calls, each from its time to its result's, in as few lanes as overlap needs;
// coloured by kind (the first word of the span's name: `chat`,
// `execute_tool`, `invoke_agent`, …), failed spans red. Drawn on a canvas
// each frame from columns, so 100,000 spans cost one pass. Wheel zooms
// around the pointer (Shift+wheel scrolls the lanes), drag pans, keys: + −
// zoom, ← → pan, ↑ ↓ scroll, 0 resets. A click selects a span: its facts
// below, with links to its begin event and to its events in the list.

import { el, clear } from '../dom.js';

const LANE = 18;
const AXIS = 24;
const KIND_COLOURS = ['#4e79a7', '#59a14f', '#9c755f', '#f28e2b', '#76b7b2', '#b07aa1', '#edc948', '#8cd17d', '#86bcb6', '#ff9da7'];

function kindOf(name) {
  return (name || '').split(/[\s/]/, 1)[0] || '(unnamed)';
}

/** A step of the time axis (1, 2, 5 × 10^n ms) giving ticks about `px` apart. */
function tickStep(msPerPx, px = 90) {
  const raw = msPerPx * px;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

function formatMs(ms) {
  if (ms === 0) return '0';
  if (Math.abs(ms) < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (Math.abs(ms) < 1000) return `${+ms.toFixed(1)} ms`;
  if (Math.abs(ms) < 60_000) return `${+(ms / 1000).toFixed(2)} s`;
  return `${+(ms / 60_000).toFixed(2)} min`;
}

export const spanChartView = {
  id: 'span-chart',
  label: 'Span chart',
  available: (info) => (info.stats.byKind.span ?? 0) > 0 || (info.hasTimestamps && info.stats.toolCalls > 0),
  async render(panel, ctx) {
    const bars = await ctx.call('spanBars');
    const n = bars.start.length;
    const calls = bars.kind.filter((k) => k === 'call').length;
    const what = [n - calls && `${(n - calls).toLocaleString('en-US')} spans`, calls && `${calls.toLocaleString('en-US')} tool calls`].filter(Boolean).join(' and ') || 'Nothing';
    panel.append(el('h2', { className: 'view-title', id: ctx.id('span-chart-title') }, `${what} on a time axis${bars.untimed ? ` (${bars.untimed.toLocaleString('en-US')} without a time are not drawn)` : ''}`));
    if (!n) return;
    // Lanes: each run below the previous one, a lane per depth.
    const runs = [...new Set(bars.run)].sort((a, b) => a - b);
    const runDepth = new Map(runs.map((r) => [r, 0]));
    for (let i = 0; i < n; i++) runDepth.set(bars.run[i], Math.max(runDepth.get(bars.run[i]), bars.depth[i] + 1));
    const runTop = new Map();
    let lanes = 0;
    for (const r of runs) {
      runTop.set(r, lanes);
      lanes += runDepth.get(r);
    }
    const lane = Uint32Array.from({ length: n }, (_, i) => runTop.get(bars.run[i]) + bars.depth[i]);
    const kinds = new Map();
    const colour = bars.name.map((name) => {
      const k = kindOf(name);
      if (!kinds.has(k)) kinds.set(k, KIND_COLOURS[kinds.size % KIND_COLOURS.length]);
      return kinds.get(k);
    });
    let end = 0;
    for (let i = 0; i < n; i++) end = Math.max(end, bars.start[i] + bars.duration[i]);
    const total = Math.max(end, 1);

    const legend = el('p', { className: 'span-legend muted' }, ...[...kinds].slice(0, 12).flatMap(([k, c]) => {
      const sw = el('span', { className: 'swatch' });
      sw.style.background = c;
      return [sw, ` ${k} `];
    }), ' — wheel: zoom · drag: pan · Shift+wheel: lanes · keys + − ← → ↑ ↓ 0');
    const canvas = el('canvas', { className: 'span-canvas', id: ctx.id('span-canvas'), tabIndex: 0, role: 'img', 'aria-label': `span chart of ${n} spans` });
    const details = el('div', { className: 'span-details', id: ctx.id('span-details'), 'aria-live': 'polite' });
    panel.append(legend, canvas, details);

    const view = { t0: 0, msPerPx: 1, top: 0, selected: -1, width: 0, height: 0 };
    const fit = () => {
      view.width = canvas.clientWidth || 800;
      view.msPerPx = total / Math.max(1, view.width - 20);
      view.t0 = 0;
      view.top = 0;
    };
    let frame = 0;
    const draw = () => {
      frame = 0;
      const dpr = window.devicePixelRatio || 1;
      view.width = canvas.clientWidth || 800;
      view.height = canvas.clientHeight || 400;
      canvas.width = Math.round(view.width * dpr);
      canvas.height = Math.round(view.height * dpr);
      const g = canvas.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      const style = getComputedStyle(canvas);
      g.clearRect(0, 0, view.width, view.height);
      g.font = '11px system-ui, sans-serif';
      // Axis.
      const step = tickStep(view.msPerPx);
      g.fillStyle = style.color;
      g.strokeStyle = style.borderColor || '#ccc';
      for (let t = Math.ceil(view.t0 / step) * step; (t - view.t0) / view.msPerPx < view.width; t += step) {
        const x = (t - view.t0) / view.msPerPx;
        g.fillRect(x, AXIS - 6, 1, 6);
        g.fillText(formatMs(t), x + 3, AXIS - 9);
        g.globalAlpha = 0.15;
        g.fillRect(x, AXIS, 1, view.height - AXIS);
        g.globalAlpha = 1;
      }
      // Bars: only those in view; a bar under a pixel wide is drawn one pixel wide.
      const firstLane = view.top;
      const lastLane = view.top + Math.ceil((view.height - AXIS) / LANE);
      const tEnd = view.t0 + view.width * view.msPerPx;
      for (let i = 0; i < n; i++) {
        const l = lane[i];
        if (l < firstLane || l > lastLane) continue;
        const s = bars.start[i];
        const e = s + bars.duration[i];
        if (e < view.t0 || s > tEnd) continue;
        const x = (s - view.t0) / view.msPerPx;
        const w = Math.max(1, (e - s) / view.msPerPx);
        const y = AXIS + (l - view.top) * LANE + 1;
        g.fillStyle = bars.failed[i] ? '#d73a49' : colour[i];
        g.fillRect(x, y, w, LANE - 3);
        if (i === view.selected) {
          g.lineWidth = 2;
          g.strokeStyle = style.color;
          g.strokeRect(x - 1, y - 1, w + 2, LANE - 1);
        }
        if (w > 40) {
          g.fillStyle = '#fff';
          g.save();
          g.beginPath();
          g.rect(x, y, w, LANE - 3);
          g.clip();
          g.fillText(bars.name[i], Math.max(x, 0) + 3, y + LANE - 7);
          g.restore();
        }
      }
    };
    const redraw = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    const clampTop = () => {
      view.top = Math.max(0, Math.min(view.top, Math.max(0, lanes - Math.floor((view.height - AXIS) / LANE))));
    };
    const zoom = (factor, atX) => {
      const t = view.t0 + atX * view.msPerPx;
      view.msPerPx = Math.max(1e-6, view.msPerPx * factor);
      view.t0 = t - atX * view.msPerPx;
      redraw();
    };
    const hit = (x, y) => {
      const l = view.top + Math.floor((y - AXIS) / LANE);
      const t = view.t0 + x * view.msPerPx;
      const slop = 3 * view.msPerPx;
      let best = -1;
      for (let i = 0; i < n; i++) {
        if (lane[i] !== l) continue;
        if (bars.start[i] - slop <= t && t <= bars.start[i] + bars.duration[i] + slop) best = i;
      }
      return best;
    };
    const showDetails = (i) => {
      clear(details);
      if (i < 0) return;
      const span = bars.kind[i] === 'span';
      const path = span ? bars.nodePaths[bars.node[i]] ?? bars.name[i] : bars.name[i];
      const open = el('button', { type: 'button', className: 'link', id: ctx.id('span-open') }, span ? `open its begin event #${bars.event[i]}` : `open the call's event #${bars.event[i]}`);
      open.addEventListener('click', () => ctx.goto(bars.event[i]));
      const facts = [[span ? 'span' : 'tool call', path], ['run', String(bars.run[i])], ['start', `+${formatMs(bars.start[i])}`], ['duration', formatMs(bars.duration[i])], [span ? 'depth' : 'lane', String(bars.depth[i])], ['status', bars.failed[i] ? 'failed' : 'ok']];
      details.append(el('dl', { className: 'span-facts' }, ...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-fact': k }, v)])), open);
      if (span) {
        const events = el('button', { type: 'button', className: 'link', id: ctx.id('span-events') }, 'show its events in the list');
        events.addEventListener('click', () => ctx.setQuery(`span:${/[\s()"]/.test(path) ? `"${path.replace(/["\\]/g, '\\$&')}"` : path}`));
        details.append(' · ', events);
      }
    };

    let drag = null;
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      if (e.shiftKey) {
        view.top += Math.sign(e.deltaY || e.deltaX) * 3;
        clampTop();
        redraw();
      } else zoom(Math.exp(e.deltaY * 0.002), e.offsetX);
    }, { passive: false });
    canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.offsetX, y: e.offsetY, t0: view.t0, top: view.top, moved: false };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.offsetX - drag.x;
      const dy = e.offsetY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      view.t0 = drag.t0 - dx * view.msPerPx;
      view.top = drag.top - Math.round(dy / LANE);
      clampTop();
      redraw();
    });
    canvas.addEventListener('pointerup', (e) => {
      const click = drag && !drag.moved;
      drag = null;
      if (!click) return;
      view.selected = hit(e.offsetX, e.offsetY);
      showDetails(view.selected);
      redraw();
    });
    canvas.addEventListener('keydown', (e) => {
      const w = view.width;
      const keys = {
        '+': () => zoom(0.8, w / 2), '=': () => zoom(0.8, w / 2), '-': () => zoom(1.25, w / 2),
        ArrowLeft: () => { view.t0 -= w * 0.1 * view.msPerPx; }, ArrowRight: () => { view.t0 += w * 0.1 * view.msPerPx; },
        ArrowUp: () => { view.top -= 1; clampTop(); }, ArrowDown: () => { view.top += 1; clampTop(); },
        0: fit,
      };
      const act = keys[e.key];
      if (!act) return;
      e.preventDefault();
      e.stopPropagation();
      act();
      redraw();
    });
    new ResizeObserver(redraw).observe(canvas);
    fit();
    draw();
    // For tests and embedders: the chart's state.
    canvas.chart = { view, lane, bars, hit, redraw };
  },
};
