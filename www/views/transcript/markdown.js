// Markdown as DOM: the mdast tree the worker parsed (micromark's
// mdast-util-from-markdown with GFM tables and strikethrough) turned into
// elements with createElement and text nodes only. Nothing is parsed as
// HTML: raw HTML in the markdown is shown as the text it is; a link is a
// link only when it is http(s), and opens in a new tab without opener or
// referrer; an image is shown only when it is an inline data: image (no
// remote image is ever requested).

import { el } from '../../dom.js';

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+=*$/i;

/** `url` when it is an absolute http(s) URL, else null. */
export function safeHref(url) {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** An http(s) link, or the text marked inert (with what it pointed at in its title). */
export function link(url, title, children) {
  const href = safeHref(url);
  if (!href) return el('span', { className: 'md-link-inert', title: `not a web link, not followed: ${String(url).slice(0, 200)}` }, ...children);
  return el('a', { href, target: '_blank', rel: 'noopener noreferrer', referrerPolicy: 'no-referrer', title: title || href, className: 'md-link' }, ...children);
}

/** An inline data: image, or its name and address as text. */
export function image(url, alt) {
  if (typeof url === 'string' && DATA_IMAGE.test(url)) {
    return el('img', { className: 'md-img', src: url, alt: alt || 'image', loading: 'lazy' });
  }
  return el('span', { className: 'md-img-blocked muted', title: 'remote images are not loaded' }, `[image${alt ? `: ${alt}` : ''}] (${String(url ?? '').slice(0, 200)})`);
}

function definitions(root) {
  const defs = new Map();
  const walk = (n) => {
    if (n.type === 'definition') defs.set(n.identifier, n);
    for (const c of n.children ?? []) walk(c);
  };
  walk(root);
  return defs;
}

/** DOM nodes for an mdast tree. */
export function renderMarkdown(tree) {
  const defs = definitions(tree);
  const kids = (n) => (n.children ?? []).map(render);
  function render(n) {
    switch (n.type) {
      case 'root':
        return el('div', { className: 'md' }, ...kids(n));
      case 'paragraph':
        return el('p', {}, ...kids(n));
      case 'heading':
        // Under the page's own headings: # is an h3.
        return el(`h${Math.min(6, Math.max(1, n.depth) + 2)}`, { className: `md-h md-h${n.depth}` }, ...kids(n));
      case 'thematicBreak':
        return el('hr');
      case 'blockquote':
        return el('blockquote', {}, ...kids(n));
      case 'list': {
        const list = el(n.ordered ? 'ol' : 'ul', {}, ...kids(n));
        if (n.ordered && Number.isInteger(n.start) && n.start !== 1) list.start = n.start;
        return list;
      }
      case 'listItem': {
        const li = el('li', {}, ...kids(n));
        if (n.checked === true || n.checked === false) li.prepend(el('span', { className: 'md-check' }, n.checked ? '☑ ' : '☐ '));
        return li;
      }
      case 'code':
        return el('div', { className: 'md-code' }, n.lang ? el('span', { className: 'md-lang muted' }, n.lang) : null, el('pre', {}, el('code', {}, n.value)));
      case 'html':
        // Raw HTML is text here: shown, never parsed.
        return el('code', { className: 'md-html' }, n.value);
      case 'text':
        return document.createTextNode(n.value);
      case 'emphasis':
        return el('em', {}, ...kids(n));
      case 'strong':
        return el('strong', {}, ...kids(n));
      case 'delete':
        return el('del', {}, ...kids(n));
      case 'inlineCode':
        return el('code', {}, n.value);
      case 'break':
        return el('br');
      case 'link':
        return link(n.url, n.title, kids(n));
      case 'image':
        return image(n.url, n.alt);
      case 'linkReference': {
        const d = defs.get(n.identifier);
        return d ? link(d.url, d.title, kids(n)) : el('span', {}, ...kids(n));
      }
      case 'imageReference': {
        const d = defs.get(n.identifier);
        return image(d?.url, n.alt);
      }
      case 'definition':
        return el('p', { className: 'md-def muted' }, `[${n.label ?? n.identifier}]: ${n.url}`);
      case 'table':
        return table(n, render);
      default:
        // Anything else (footnotes, extensions' nodes): its text.
        return n.children ? el('span', {}, ...kids(n)) : document.createTextNode(typeof n.value === 'string' ? n.value : '');
    }
  }
  return render(tree);
}

function table(n, render) {
  const align = n.align ?? [];
  const rows = n.children ?? [];
  const row = (r, cellTag) =>
    el('tr', {}, ...(r.children ?? []).map((c, i) => {
      const cell = el(cellTag, {}, ...(c.children ?? []).map(render));
      if (align[i]) cell.style.textAlign = align[i];
      return cell;
    }));
  return el(
    'div',
    { className: 'md-table' },
    el('table', {}, rows.length ? el('thead', {}, row(rows[0], 'th')) : null, el('tbody', {}, ...rows.slice(1).map((r) => row(r, 'td')))),
  );
}
