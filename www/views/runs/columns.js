import { dollars } from '../stats.js';

// The columns of the runs table: the core's run rows (`trace.runRows()`,
// analysis::runs) give the fixed ones and the scores; metadata fields the
// user adds come from `trace.runFieldValues(name)`. Sorting is here: a
// table of 10,000 runs sorts in a few milliseconds.

/** Kinds whose cells are numbers, right-aligned under a right-aligned header. */
export function numericKind(kind) {
  return kind === 'number' || kind === 'seconds' || kind === 'dollars';
}

/** A cell value as text (numbers grouped, durations in seconds, costs in dollars). */
export function cellText(value, kind) {
  if (value === null || value === undefined) return '';
  if (kind === 'dollars') return dollars(value);
  if (kind === 'seconds') return value < 60 ? `${value.toFixed(1)} s` : `${(value / 60).toFixed(1)} min`;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Math.round(value * 1000) / 1000);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/**
 * The table's columns for `rows` plus the `extra` metadata fields:
 * { key, label, kind ('text' | 'number' | 'seconds' | 'dollars' | 'score' | 'field'), get(row, i) }.
 */
export function columnsFor(rows, extra, fieldValues) {
  const scoreNames = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  // Only traces that report a cost get the column (most formats never do).
  const costs = rows.some((r) => r.cost !== undefined);
  return [
    { key: 'id', label: 'run', kind: 'text', get: (r) => r.name ? `${r.id} · ${r.name}` : r.id },
    ...scoreNames.map((name) => ({ key: `score:${name}`, label: name, kind: 'score', score: name, get: (r) => r.scores[name] ?? null })),
    ...extra.map((name) => ({ key: `field:${name}`, label: name.replace(/^metadata\./, ''), kind: 'field', get: (r) => fieldValues.get(name)?.[r.run] ?? null })),
    { key: 'model', label: 'model', kind: 'text', get: (r) => r.model ?? null },
    // A run whose body is not read yet (an archive opened lazily): these are not known, not zero.
    { key: 'events', label: 'events', kind: 'number', get: (r) => (r.pending ? null : r.events) },
    { key: 'toolCalls', label: 'tool calls', kind: 'number', get: (r) => (r.pending ? null : r.toolCalls) },
    { key: 'failures', label: 'failures', kind: 'number', get: (r) => (r.pending ? null : r.failures) },
    { key: 'tokens', label: 'tokens', kind: 'number', get: (r) => (r.pending && !r.tokens ? null : r.tokens) },
    ...(costs ? [{ key: 'cost', label: 'cost', kind: 'dollars', get: (r) => r.cost ?? null }] : []),
    { key: 'duration', label: 'duration', kind: 'seconds', get: (r) => r.durationSeconds ?? null },
    { key: 'error', label: 'error', kind: 'text', get: (r) => r.error ?? null },
  ];
}

/** Orders mixed cell values: numbers, then booleans, then strings; empty cells last either way. */
function compareValues(a, b) {
  const rank = (v) => (typeof v === 'number' ? 0 : typeof v === 'boolean' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'string') return a.localeCompare(b, 'en', { numeric: true });
  return Number(a) - Number(b);
}

/** `positions` (indices into rows) sorted by `column`, `dir` 1 or -1; ties keep run order. */
export function sortPositions(positions, rows, column, dir) {
  if (!column) return positions;
  const values = new Map(positions.map((p) => [p, column.get(rows[p])]));
  return [...positions].sort((x, y) => {
    const a = values.get(x);
    const b = values.get(y);
    const emptyA = a === null || a === undefined || a === '';
    const emptyB = b === null || b === undefined || b === '';
    if (emptyA || emptyB) return emptyA === emptyB ? x - y : emptyA ? 1 : -1;
    return dir * compareValues(a, b) || x - y;
  });
}

/** `key:asc` / `key:desc` from the hash, as { key, dir }. */
export function parseSort(text) {
  const m = /^(.+):(asc|desc)$/.exec(text ?? '');
  return m ? { key: m[1], dir: m[2] === 'desc' ? -1 : 1 } : null;
}
