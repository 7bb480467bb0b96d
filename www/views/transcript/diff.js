// A file edit as a diff: old/new strings compared line by line (a longest
// common subsequence over the lines left once the common head and tail are
// cut), or a patch (unified diff, Codex's `*** Begin Patch`) with its lines
// coloured by their sign. Text only ever becomes text nodes.

import { el } from '../../dom.js';

/** Above this many cells the middle is shown as removed-then-added (the table would cost too much). */
const MAX_CELLS = 2_000_000;

/** [sign, line] pairs: ' ' kept, '-' removed, '+' added. */
export function lineDiff(oldText, newText) {
  const a = oldText === '' ? [] : oldText.split('\n');
  const b = newText === '' ? [] : newText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out = a.slice(0, head).map((l) => [' ', l]);
  if (x.length * y.length > MAX_CELLS) {
    out.push(...x.map((l) => ['-', l]), ...y.map((l) => ['+', l]));
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
    const w = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * w);
    for (let i = x.length - 1; i >= 0; i--) {
      for (let j = y.length - 1; j >= 0; j--) {
        lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        out.push([' ', x[i++]]);
        j++;
      } else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        // Removed lines before the added ones that replace them.
        out.push(['-', x[i++]]);
      } else {
        out.push(['+', y[j++]]);
      }
    }
  }
  out.push(...a.slice(a.length - tail).map((l) => [' ', l]));
  return out;
}

const SIGN_CLASS = { '+': 'd-add', '-': 'd-del', ' ': 'd-ctx', '@': 'd-hunk', h: 'd-head' };

function lines(pairs) {
  return el(
    'pre',
    { className: 'tr-diff-lines' },
    ...pairs.map(([sign, text]) => el('span', { className: `d-line ${SIGN_CLASS[sign]}` }, el('span', { className: 'd-sign', 'aria-hidden': 'true' }, sign === 'h' || sign === '@' ? '' : sign), text, '\n')),
  );
}

function counts(pairs) {
  const add = pairs.filter(([s]) => s === '+').length;
  const del = pairs.filter(([s]) => s === '-').length;
  return el('span', { className: 'd-counts' }, el('span', { className: 'd-add-count' }, `+${add}`), ' ', el('span', { className: 'd-del-count' }, `−${del}`));
}

/** A diff of `edits` ([{ old, new }]) to file `path`. */
export function editDiff(path, edits) {
  const pairs = [];
  edits.forEach((e, n) => {
    if (n > 0) pairs.push(['@', '⋯']);
    pairs.push(...lineDiff(e.old, e.new));
  });
  return el('div', { className: 'tr-diff' }, el('div', { className: 'tr-diff-head' }, el('span', { className: 'tr-path' }, path || '(no file named)'), ' ', counts(pairs)), lines(pairs));
}

/** A patch (unified diff or `*** Begin Patch`) with its lines marked. */
export function patchDiff(patch) {
  const pairs = patch.split('\n').map((l) => {
    if (/^(\+\+\+|---|\*\*\*|diff |index )/.test(l)) return ['h', l];
    if (l.startsWith('@@')) return ['@', l];
    if (l.startsWith('+')) return ['+', l.slice(1)];
    if (l.startsWith('-')) return ['-', l.slice(1)];
    return [' ', l.startsWith(' ') ? l.slice(1) : l];
  });
  const files = patch.match(/^(?:\*\*\* (?:Update|Add|Delete) File: |\+\+\+ (?:b\/)?)(.+)$/gm) ?? [];
  const names = files.map((f) => f.replace(/^(?:\*\*\* (?:Update|Add|Delete) File: |\+\+\+ (?:b\/)?)/, ''));
  return el('div', { className: 'tr-diff' }, el('div', { className: 'tr-diff-head' }, el('span', { className: 'tr-path' }, names.join(', ') || 'patch'), ' ', counts(pairs)), lines(pairs));
}

/** Looks like a patch: a unified diff's hunk or Codex's envelope. */
export function isPatch(text) {
  return typeof text === 'string' && (/^\*\*\* Begin Patch/m.test(text) || (/^@@ .* @@/m.test(text) && /^(---|\+\+\+) /m.test(text)));
}
