// An event's content blocks (page-data.js) as DOM: prose as markdown, tool
// output as plain text, reasoning collapsed under a label, images (inline
// data: URLs only, as the page's CSP allows) with their size, other parts
// named by their type with their JSON. Very long text is cut with a button
// for the rest, so that one huge event cannot hold up the page.

import { el } from '../../dom.js';
import { jsonTree } from '../../jsontree.js';
import { renderMarkdown } from './markdown.js';

/** Characters of one text block put in the page at first; the rest on request. */
export const SHOWN_CHARS = 100_000;

const IMAGE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,/i;

function plural(n, word) {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** Plain text in a <pre>, cut at SHOWN_CHARS with a button for the rest. */
export function plainText(text, className = 'tr-text') {
  const pre = el('pre', { className });
  if (text.length <= SHOWN_CHARS) {
    pre.textContent = text;
    return pre;
  }
  pre.textContent = text.slice(0, SHOWN_CHARS);
  const more = el('button', { type: 'button', className: 'link tr-more' }, `show the other ${plural(text.length - SHOWN_CHARS, 'character')}`);
  more.addEventListener('click', () => {
    pre.textContent = text;
    more.remove();
  });
  return el('div', {}, pre, more);
}

function textBlock(block) {
  if (block.md) return renderMarkdown(block.md);
  return plainText(block.text);
}

export function imageBlock(url, n) {
  if (!IMAGE_DATA_URL.test(url)) {
    // Remote images are never fetched: loading one would tell its server the trace was opened.
    const shown = url.startsWith('data:') ? `${url.slice(0, Math.max(0, url.indexOf(',')) + 1)}…` : url.slice(0, 300);
    return el('p', { className: 'tr-image-blocked muted' }, `image ${n} not loaded (only inline data: images are shown): `, el('code', {}, shown));
  }
  const bytes = Math.round(((url.length - url.indexOf(',') - 1) * 3) / 4);
  const mime = url.slice(5, url.indexOf(';'));
  const caption = el('figcaption', { className: 'muted' }, `image ${n} · ${mime} · ${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`);
  const img = el('img', { className: 'tr-img', src: url, alt: `image ${n} (${mime})`, decoding: 'async' });
  img.addEventListener('load', () => {
    caption.append(` · ${img.naturalWidth}×${img.naturalHeight} px`);
    // A few pixels only: enlarged, crisp, so that it can be seen at all.
    if (img.naturalWidth < 48 && img.naturalHeight < 48) img.classList.add('tr-img-tiny');
  }, { once: true });
  // A data URL that does not decode (cut short, not the type it says): say so rather than show a broken image.
  img.addEventListener('error', () => {
    img.hidden = true;
    caption.append(' · not a readable image');
  }, { once: true });
  return el('figure', { className: 'tr-image' }, img, caption);
}

/** What a part of another type is, by its `type` (audio, video, file, …). */
function otherBlock(json) {
  const type = json && typeof json === 'object' && typeof json.type === 'string' ? json.type : null;
  const kind = type && /audio/i.test(type) ? 'audio' : type && /video/i.test(type) ? 'video' : type && /file|document|pdf/i.test(type) ? 'file' : null;
  const label = kind ? `${kind} part${type !== kind ? ` (${type})` : ''}: not played here` : `part of type ${type ?? 'unknown'}`;
  return el('details', { className: 'tr-other' }, el('summary', {}, label), jsonTree(json, 1));
}

/** DOM for `blocks`; images are numbered across the event. */
export function renderBlocks(blocks) {
  let images = 0;
  return blocks.map((b) => {
    switch (b.type) {
      case 'text':
        return textBlock(b);
      case 'reasoning':
        return el(
          'details',
          { className: 'tr-reasoning' },
          el('summary', {}, `Thinking · ${plural(b.text.length, 'character')}`),
          textBlock(b),
        );
      case 'image':
        return imageBlock(b.url, ++images);
      case 'json':
        return el('div', { className: 'tr-json' }, jsonTree(b.json, 2));
      default:
        return otherBlock(b.json);
    }
  });
}
