// DOM building without HTML strings: trace content is hostile, so it only
// ever reaches the page as text nodes and attribute values set here.

/** Creates an element; `props` sets properties (className, hidden, …) and `data-*`/aria attributes. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'title') {
      node.setAttribute(key, String(value));
    } else {
      node[key] = value;
    }
  }
  append(node, ...children);
  return node;
}

export function append(node, ...children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

/** Long text folded to `limit` characters with a toggle. */
export function foldedText(text, limit = 1200) {
  const pre = el('pre', { className: 'content' });
  if (text.length <= limit) {
    pre.textContent = text;
    return pre;
  }
  const rest = text.length - limit;
  pre.textContent = text.slice(0, limit) + '…';
  const toggle = el('button', { type: 'button', className: 'link' }, `show ${rest.toLocaleString()} more characters`);
  let open = false;
  toggle.addEventListener('click', () => {
    open = !open;
    pre.textContent = open ? text : text.slice(0, limit) + '…';
    toggle.textContent = open ? 'fold' : `show ${rest.toLocaleString()} more characters`;
  });
  return el('div', {}, pre, toggle);
}
