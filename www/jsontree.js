// A collapsible JSON tree built from text nodes; children are built only
// when a node is opened, so a huge event costs nothing until explored.

import { el } from './dom.js';

const SHOWN = 200;

function scalar(value) {
  if (value === null) return el('span', { className: 'j-null' }, 'null');
  switch (typeof value) {
    case 'string':
      return el('span', { className: 'j-str' }, JSON.stringify(value.length > 5000 ? value.slice(0, 5000) + '…' : value));
    case 'number':
      return el('span', { className: 'j-num' }, String(value));
    case 'boolean':
      return el('span', { className: 'j-bool' }, String(value));
    default:
      return el('span', {}, String(value));
  }
}

function label(key) {
  return key === undefined ? null : el('span', { className: 'j-key' }, typeof key === 'number' ? `${key}: ` : `${JSON.stringify(key)}: `);
}

function node(key, value, openDepth) {
  if (value === null || typeof value !== 'object') {
    return el('li', {}, label(key), scalar(value));
  }
  const isArray = Array.isArray(value);
  const keys = isArray ? value.map((_, i) => i) : Object.keys(value);
  const brief = isArray ? `[${keys.length}]` : `{${keys.length}}`;
  if (!keys.length) return el('li', {}, label(key), el('span', { className: 'muted' }, isArray ? '[]' : '{}'));
  const details = el('details', {}, el('summary', {}, label(key), el('span', { className: 'muted' }, brief)));
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    const list = el('ul', { className: 'jtree' });
    const renderFrom = (start) => {
      for (const k of keys.slice(start, start + SHOWN)) list.append(node(k, value[k], openDepth - 1));
      if (keys.length > start + SHOWN) {
        const more = el('button', { type: 'button', className: 'link' }, `show ${Math.min(SHOWN, keys.length - start - SHOWN)} more of ${keys.length - start - SHOWN}`);
        const li = el('li', {}, more);
        more.addEventListener('click', () => {
          li.remove();
          renderFrom(start + SHOWN);
        });
        list.append(li);
      }
    };
    renderFrom(0);
    details.append(list);
  };
  details.addEventListener('toggle', () => details.open && build());
  if (openDepth > 0) {
    details.open = true;
    build();
  }
  return el('li', {}, details);
}

/** A tree for `value`, open `openDepth` levels deep. */
export function jsonTree(value, openDepth = 1) {
  return el('ul', { className: 'jtree root' }, node(undefined, value, openDepth));
}
