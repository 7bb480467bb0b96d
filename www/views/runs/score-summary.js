// One line per score column over the runs the filter shows: the mean of the
// numeric (and boolean: true is 1) values, the counts by value when the
// score takes few values, and a small histogram of numeric scores.

import { el } from '../../dom.js';

/** Values with more distinct values than this are not counted one by one. */
const MAX_LISTED_VALUES = 8;
const BINS = 10;

/** The summary of one score's values (nulls left out). */
export function summarise(values) {
  const present = values.filter((v) => v !== null && v !== undefined);
  const numeric = present.filter((v) => typeof v === 'number' || typeof v === 'boolean').map(Number);
  const counts = new Map();
  for (const v of present) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  const mean = numeric.length ? numeric.reduce((a, b) => a + b, 0) / numeric.length : null;
  let histogram = null;
  if (numeric.length && counts.size > MAX_LISTED_VALUES) {
    const lo = Math.min(...numeric);
    const hi = Math.max(...numeric);
    histogram = new Array(BINS).fill(0);
    for (const v of numeric) histogram[hi === lo ? 0 : Math.min(BINS - 1, Math.floor(((v - lo) / (hi - lo)) * BINS))] += 1;
    histogram = { lo, hi, bins: histogram };
  }
  const listed = counts.size <= MAX_LISTED_VALUES ? [...counts].sort((a, b) => b[1] - a[1]) : null;
  return { n: present.length, mean, counts: listed, distinct: counts.size, histogram };
}

function histogramNode({ lo, hi, bins }) {
  const max = Math.max(1, ...bins);
  const node = el('span', { className: 'score-hist', title: `${lo} … ${hi}`, 'aria-label': `histogram from ${lo} to ${hi}: ${bins.join(', ')}` });
  for (const n of bins) {
    const bar = el('span', { className: 'score-hist-bar' });
    bar.style.height = `${Math.max(n ? 8 : 0, (100 * n) / max)}%`;
    node.append(bar);
  }
  return node;
}

/** The summary line of score `name`. */
export function summaryLine(name, values) {
  const s = summarise(values);
  const parts = [el('strong', {}, name), ` ${s.n.toLocaleString('en-US')} scored`];
  if (s.mean !== null) parts.push(` · mean ${Math.round(s.mean * 1000) / 1000}`);
  if (s.counts) parts.push(' · ', s.counts.map(([v, n]) => `${v}: ${n.toLocaleString('en-US')}`).join(', '));
  else parts.push(` · ${s.distinct.toLocaleString('en-US')} distinct values`);
  if (s.histogram) parts.push(' ', histogramNode(s.histogram));
  return el('p', { className: 'score-summary', 'data-score': name }, ...parts);
}
