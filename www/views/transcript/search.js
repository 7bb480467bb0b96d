// Search marks in the transcript: occurrences of the searched text wrapped
// in <mark> elements (text nodes split, never HTML), removed again, and
// revealed: a mark inside a folded block (thinking, a collapsed result, a
// sub-agent run, a JSON tree node) opens it.

import { setExpanded } from './tool-call.js';

/** Wraps each case-insensitive occurrence of `text` under `root` in <mark class="tr-hit">; returns the marks. */
export function highlight(root, text) {
  const needle = text.toLowerCase();
  if (!needle) return [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeValue.length >= needle.length && n.nodeValue.toLowerCase().includes(needle)) nodes.push(n);
  }
  const marks = [];
  for (const node of nodes) {
    const value = node.nodeValue;
    const lower = value.toLowerCase();
    // Lower-casing can change a string's length (rarely): then mark nothing rather than the wrong text.
    if (lower.length !== value.length) continue;
    const frag = document.createDocumentFragment();
    let at = 0;
    for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, i + needle.length)) {
      if (i > at) frag.append(value.slice(at, i));
      const mark = document.createElement('mark');
      mark.className = 'tr-hit';
      mark.textContent = value.slice(i, i + needle.length);
      frag.append(mark);
      marks.push(mark);
      at = i + needle.length;
    }
    if (at < value.length) frag.append(value.slice(at));
    node.replaceWith(frag);
  }
  return marks;
}

/** Removes the marks under `root`, joining the text back. */
export function clearHighlights(root) {
  const marks = root.querySelectorAll('mark.tr-hit');
  if (!marks.length) return;
  const parents = new Set();
  for (const m of marks) {
    parents.add(m.parentNode);
    m.replaceWith(m.textContent);
  }
  for (const p of parents) p.normalize();
}

/** Opens every folded block that holds `mark`. */
export function reveal(mark) {
  for (let n = mark.parentElement; n; n = n.parentElement) {
    if (n.tagName === 'DETAILS' && !n.open) n.open = true;
    if (n.classList.contains('tr-result-body') && n.classList.contains('collapsed')) setExpanded(n.parentElement, true);
    if (n.classList.contains('tr-item')) break;
  }
}
