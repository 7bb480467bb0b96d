// The event list's rows (RowView) and the detail pane (EventView + raw JSON).
// Trace text only ever becomes text nodes and attribute values.

import { el, foldedText } from './dom.js';
import { jsonTree } from './jsontree.js';

function plural(n, word) {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

/** A link to another event; the page intercepts clicks on [data-event]. */
export function eventLink(index, text, title) {
  return el('a', { href: `#e=${index}`, className: 'event-link', 'data-event': index, title }, text);
}

function badgeClass(name) {
  return `badge badge-${String(name).replace(/[^a-z0-9-]/gi, '_')}`;
}

/** hh:mm:ss of an ISO time, else the text cut short. */
export function shortTime(ts) {
  if (!ts) return '';
  const m = /T(\d\d:\d\d:\d\d)/.exec(ts) ?? /^\d{4}-\d\d-\d\d[ ](\d\d:\d\d:\d\d)/.exec(ts);
  return m ? m[1] : ts.slice(0, 12);
}

/** One line of the list. */
export function renderRow(row) {
  const badge = row.role ?? row.kind;
  const parts = [
    el('span', { className: 'r-index' }, `#${row.index}`),
    el('span', { className: 'r-time', title: row.timestamp }, shortTime(row.timestamp)),
    el('span', { className: badgeClass(badge) }, badge),
  ];
  if (row.errors) parts.push(el('span', { className: 'r-flag count-error', title: plural(row.errors, 'error') }, `✖ ${row.errors}`));
  else if (row.warnings) parts.push(el('span', { className: 'r-flag count-warning', title: plural(row.warnings, 'warning') }, `⚠ ${row.warnings}`));
  if (row.status === 'error' || row.failed) parts.push(el('span', { className: 'r-flag count-error' }, 'failed'));
  parts.push(el('span', { className: 'r-summary' }, row.summary || el('span', { className: 'muted' }, row.sourceKind)));
  if (row.callEvent !== undefined && row.callEvent !== null) parts.push(eventLink(row.callEvent, `← #${row.callEvent}`, 'the call this answers'));
  const results = (row.results ?? []).filter((r) => r !== null);
  if (results.length) parts.push(eventLink(results[0], `→ #${results[0]}${results.length > 1 ? ` +${results.length - 1}` : ''}`, 'the result'));
  const classes = ['r'];
  if (row.errors || row.status === 'error' || row.failed) classes.push('has-error');
  else if (row.warnings) classes.push('has-warning');
  return el('div', { className: classes.join(' ') }, ...parts);
}

const IMAGE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,/i;

function imagePart(url, n) {
  if (IMAGE_DATA_URL.test(url)) {
    const kb = Math.round((url.length * 3) / 4 / 1024);
    const img = el('img', { className: 'thumb', src: url, alt: `image ${n} (${url.slice(5, url.indexOf(';'))}, ${kb} KB)`, loading: 'lazy' });
    return el('figure', { className: 'image-part' }, img, el('figcaption', { className: 'muted' }, `image ${n}: ${kb.toLocaleString()} KB inline`));
  }
  // Remote images are never fetched: showing them would tell their server the trace was opened.
  const shown = url.startsWith('data:') ? `${url.slice(0, url.indexOf(',') + 1)}… (not an image type shown here)` : url.length > 300 ? url.slice(0, 300) + '…' : url;
  return el('p', { className: 'image-part muted' }, `image ${n} not loaded (only inline data: images are shown): `, el('code', {}, shown));
}

function renderParts(parts, openReasoning = false) {
  let images = 0;
  return parts.map((part) => {
    switch (part.type) {
      case 'text':
        return foldedText(part.text);
      case 'reasoning':
        return el('details', { className: 'reasoning', open: openReasoning }, el('summary', {}, `reasoning (${part.text.length.toLocaleString()} characters)`), foldedText(part.text));
      case 'image':
        return imagePart(part.url, ++images);
      default:
        return el('div', { className: 'other-part' }, el('p', { className: 'muted' }, 'part of another type:'), jsonTree(part.json, 1));
    }
  });
}

function renderCall(event, call, idPrefix) {
  const result =
    call.result !== null && call.result !== undefined
      ? eventLink(call.result, `→ result #${call.result}`)
      : el('span', { className: 'muted' }, 'no result');
  const args =
    call.arguments !== null && call.arguments !== undefined && typeof call.arguments === 'object'
      ? jsonTree(call.arguments, 2)
      : el('pre', { className: 'content' }, call.argumentsText ?? JSON.stringify(call.arguments));
  return el(
    'div',
    { className: 'call', id: `${idPrefix}call-${event.index}-${call.index}` },
    el('div', { className: 'call-head' }, el('span', { className: 'fn' }, call.function || '(no name)'), ' ', result, call.id ? el('span', { className: 'muted call-id' }, ` id ${call.id}`) : null),
    args,
  );
}

function fact(name, value) {
  return value === undefined || value === null || value === '' ? null : [el('dt', {}, name), el('dd', {}, String(value))];
}

/**
 * The detail pane's contents for one event.
 * @param {{view: any, raw: string, diagnostics: any[]}} data
 * @param {{onCopy: (raw: string, button: HTMLElement) => void, idPrefix?: string}} o
 *   `idPrefix` makes the pane's ids unique to its viewer (several on a page).
 */
export function renderDetail(data, { onCopy, idPrefix = '' }) {
  const event = data.view;
  const badge = event.role ?? event.kind;
  const copy = el('button', { type: 'button', className: 'button small', id: `${idPrefix}copy-raw` }, 'Copy raw JSON');
  copy.addEventListener('click', () => onCopy(data.raw, copy));
  const out = [
    el(
      'div',
      { className: 'detail-head' },
      el('h2', { id: `${idPrefix}detail-title`, tabIndex: -1 }, `Event #${event.index} `, el('span', { className: badgeClass(badge) }, badge)),
      copy,
      el('button', { type: 'button', className: 'button small', id: `${idPrefix}close-detail`, 'aria-label': 'Close the detail pane (Esc)' }, 'Close'),
    ),
    el(
      'dl',
      { className: 'facts' },
      fact('kind', event.kind),
      fact('record', event.sourceKind),
      fact('time', event.timestamp),
      fact('run', event.run),
      fact('where', `line ${event.line}:${event.column} · ${event.path}`),
    ),
  ];
  if (data.diagnostics.length) {
    out.push(
      el(
        'ul',
        { className: 'event-diagnostics' },
        ...data.diagnostics.map((d) =>
          el('li', { className: `diagnostic severity-${d.severity}` }, el('span', { className: `badge sev-${d.severity}` }, d.severity), el('code', {}, d.code), ' ', d.message, el('span', { className: 'muted' }, ` (${d.path})`)),
        ),
      ),
    );
  }
  if (event.kind === 'tool-result') {
    const link = event.call
      ? eventLink(event.call.event, `← answers #${event.call.event}${event.callFunction ? ' ' + event.callFunction : ''}`)
      : el('span', { className: 'muted' }, 'not linked to a call');
    out.push(
      el(
        'p',
        { className: 'answers' },
        link,
        event.implicitLink ? el('span', { className: 'muted' }, ' (by position: no tool_call_id)') : null,
        event.callId ? el('span', { className: 'muted' }, ` id ${event.callId}`) : null,
        event.status === 'error' ? el('span', { className: 'count-error' }, ' tool error') : null,
      ),
    );
  }
  const body = el('div', { className: 'event-body' });
  // A decision's reasoning is the point of the record (AgentLens): shown open.
  if (event.parts) body.append(...renderParts(event.parts, event.sourceKind === 'decision'));
  else if (event.json !== undefined) body.append(jsonTree(event.json, 2));
  else if (event.text) body.append(foldedText(event.text));
  for (const call of event.toolCalls ?? []) body.append(renderCall(event, call, idPrefix));
  if (event.tools) body.append(el('p', {}, 'Tools: ', el('code', {}, event.tools.join(', '))));
  if (!body.childNodes.length) body.append(el('p', { className: 'muted' }, '(no content)'));
  out.push(body);

  out.push(rawTree(data.raw), rawSource(data.raw));
  return out;
}

/** Above this, the raw event's tree is built on request: parsing it would hold up the page. */
const BIG_RAW = 1_000_000;
/** Source text shown at first; the rest on request. */
const SOURCE_SHOWN = 20_000;

function rawTree(raw) {
  const box = el('details', { className: 'raw-tree', open: true }, el('summary', {}, 'Raw event (JSON tree)'));
  const build = () => {
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return el('p', { className: 'muted' }, 'The raw record is not valid JSON: see its source text below.');
    }
    return jsonTree(parsed, 1);
  };
  if (raw.length <= BIG_RAW) {
    box.append(build());
  } else {
    const button = el('button', { type: 'button', className: 'link' }, `build the tree (${(raw.length / 1024 / 1024).toFixed(1)} MB of JSON)`);
    button.addEventListener('click', () => button.replaceWith(build()));
    box.append(button);
  }
  return box;
}

function rawSource(raw) {
  const pre = el('pre', { className: 'raw' }, raw.length > SOURCE_SHOWN ? raw.slice(0, SOURCE_SHOWN) : raw);
  const box = el('details', { className: 'raw-source' }, el('summary', {}, 'Source text'), pre);
  if (raw.length > SOURCE_SHOWN) {
    const more = el('button', { type: 'button', className: 'link' }, `show all ${(raw.length / 1024 / 1024).toFixed(1)} MB`);
    more.addEventListener('click', () => {
      pre.textContent = raw;
      more.remove();
    });
    box.append(more);
  }
  return box;
}
