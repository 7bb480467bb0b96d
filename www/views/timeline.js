// The timeline: every timestamped event on a time axis, one lane per role or
// kind; click a mark to jump to the nearest event. Drawn on a canvas, binned
// per pixel, so 200k events cost one pass.

import { el } from '../dom.js';

const LANE = 22;
const LEFT = 110;

function laneOf(row) {
  return row.role ?? row.kind;
}

export const timelineView = {
  id: 'timeline',
  label: 'Timeline',
  available: (info) => info.hasTimestamps,
  async render(panel, ctx) {
    const ts = await ctx.call('timestamps');
    const timed = [];
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i];
      if (Number.isNaN(t)) continue;
      timed.push(i);
      if (t < min) min = t;
      if (t > max) max = t;
    }
    const title = el('h2', { className: 'view-title' }, `${timed.length.toLocaleString()} of ${ts.length.toLocaleString()} events have a time`);
    panel.append(title);
    if (!timed.length) return;
    // Lanes come from the facets (role or kind per event), asked in pages.
    const lanes = new Map();
    const laneIndex = new Uint16Array(ts.length);
    for (let start = 0; start < timed.length; start += 5000) {
      const rows = await ctx.call('rowsAt', { indices: Uint32Array.from(timed.slice(start, start + 5000)) });
      for (const r of rows) {
        const name = laneOf(r);
        if (!lanes.has(name)) lanes.set(name, lanes.size);
        laneIndex[r.index] = lanes.get(name);
      }
    }
    const span = Math.max(1, max - min);
    panel.append(
      el('p', { className: 'muted', id: ctx.id('timeline-range') }, `${new Date(min).toISOString()} → ${new Date(max).toISOString()} (${(span / 1000).toLocaleString()} s)`),
    );
    const canvas = el('canvas', { className: 'timeline', id: ctx.id('timeline-canvas'), role: 'img', 'aria-label': `Timeline of ${timed.length} events in ${lanes.size} lanes; use the events view to step through them` });
    panel.append(canvas);
    const width = Math.max(400, panel.clientWidth - 20);
    const height = lanes.size * LANE + 30;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr;
    canvas.height = height * dpr;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const g = canvas.getContext('2d');
    g.scale(dpr, dpr);
    const styles = getComputedStyle(panel);
    const fg = styles.getPropertyValue('--fg').trim() || '#222';
    const accent = styles.getPropertyValue('--accent').trim() || '#2563eb';
    const muted = styles.getPropertyValue('--muted').trim() || '#888';
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = fg;
    for (const [name, lane] of lanes) g.fillText(name.slice(0, 14), 4, lane * LANE + 15);
    g.strokeStyle = muted;
    g.beginPath();
    g.moveTo(LEFT, height - 24);
    g.lineTo(width - 4, height - 24);
    g.stroke();
    g.fillStyle = muted;
    g.fillText('0 s', LEFT, height - 8);
    const endLabel = `${(span / 1000).toLocaleString()} s`;
    g.fillText(endLabel, width - 8 - g.measureText(endLabel).width, height - 8);
    const plotW = width - LEFT - 8;
    const xOf = (t) => LEFT + ((t - min) / span) * plotW;
    // One mark per pixel column and lane; remember an event for clicks.
    const cols = Math.ceil(plotW) + 1;
    const hit = new Int32Array(cols * lanes.size).fill(-1);
    for (const i of timed) {
      const col = Math.round(xOf(ts[i]) - LEFT);
      const k = laneIndex[i] * cols + col;
      if (hit[k] === -1) hit[k] = i;
    }
    // Each lane in its role's colour (the badge colours), else the accent.
    const laneColour = [...lanes.keys()].map((name) => styles.getPropertyValue(`--${name}`).trim() || accent);
    for (let k = 0; k < hit.length; k++) {
      if (hit[k] === -1) continue;
      const lane = Math.floor(k / cols);
      g.fillStyle = laneColour[lane];
      g.fillRect(LEFT + (k % cols) - 1, lane * LANE + 4, 3, LANE - 8);
    }
    canvas.addEventListener('click', (e) => {
      const rect = canvas.getBoundingClientRect();
      const x = e.clientX - rect.left;
      const lane = Math.floor((e.clientY - rect.top) / LANE);
      if (lane < 0 || lane >= lanes.size) return;
      for (let d = 0; d < 6; d++) {
        for (const col of [Math.round(x - LEFT) - d, Math.round(x - LEFT) + d]) {
          const i = col >= 0 && col < cols ? hit[lane * cols + col] : -1;
          if (i >= 0) return ctx.goto(i);
        }
      }
    });
  },
};
