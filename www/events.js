// Rendering of event rows (EventView objects from the wasm API).

import { el, foldedText } from './dom.js';

function plural(n, word) {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

function json(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function eventLink(index, label) {
  return el('a', { href: `#e=${index}`, className: 'event-link', 'data-event': index }, label);
}

function imageLabel(url) {
  const m = /^data:([^;,]+)[;,]/.exec(url);
  if (m) return `[image: ${m[1]}, ${Math.round(url.length / 1024).toLocaleString()} KB inline]`;
  return `[image: ${url.length > 200 ? url.slice(0, 200) + '…' : url}]`;
}

function renderParts(parts, openReasoning) {
  return parts.map((part) => {
    switch (part.type) {
      case 'text':
        return foldedText(part.text);
      case 'reasoning':
        return el('details', { className: 'reasoning', open: openReasoning }, el('summary', {}, 'reasoning'), foldedText(part.text));
      case 'image':
        return el('p', { className: 'image-part muted' }, imageLabel(part.url));
      default:
        return el('pre', { className: 'content other-part' }, json(part.json));
    }
  });
}

function renderCall(event, call) {
  const args = call.arguments !== null && call.arguments !== undefined ? json(call.arguments) : call.argumentsText ?? '';
  const result =
    call.result !== null && call.result !== undefined
      ? eventLink(call.result, `→ result #${call.result}`)
      : el('span', { className: 'muted' }, 'no result');
  return el(
    'div',
    { className: 'call', id: `call-${event.index}-${call.index}` },
    el('span', { className: 'fn' }, call.function || '(no name)'),
    el('code', { className: 'args' }, `(${args})`),
    ' ',
    result,
    call.id ? el('span', { className: 'muted call-id' }, ` id ${call.id}`) : null,
  );
}

/** One row of the event list. `rawJson(index)` returns the event's source text. */
export function renderEvent(event, rawJson) {
  const badge = event.role ?? event.kind;
  const classes = ['event', `kind-${event.kind}`];
  if (event.errors > 0) classes.push('has-error');
  else if (event.warnings > 0) classes.push('has-warning');
  if (event.status === 'error' || event.failed) classes.push('tool-error');

  const diag = [];
  if (event.errors) diag.push(el('span', { className: 'count-error' }, plural(event.errors, 'error')));
  if (event.warnings) diag.push(el('span', { className: 'count-warning' }, plural(event.warnings, 'warning')));

  const raw = el('pre', { className: 'raw', hidden: true });
  const rawToggle = el('button', { type: 'button', className: 'link', 'aria-expanded': 'false' }, 'raw JSON');
  rawToggle.addEventListener('click', () => {
    if (raw.hidden && !raw.textContent) raw.textContent = rawJson(event.index) ?? '';
    raw.hidden = !raw.hidden;
    rawToggle.setAttribute('aria-expanded', String(!raw.hidden));
  });

  const head = el(
    'div',
    { className: 'event-head' },
    eventLink(event.index, `#${event.index}`),
    el('span', { className: `badge badge-${badge.replace(/[^a-z0-9-]/gi, '_')}` }, badge),
    el('span', { className: 'source-kind muted' }, event.sourceKind),
    event.timestamp ? el('span', { className: 'muted' }, event.timestamp) : null,
    event.span ? el('span', { className: 'span-path muted', title: 'span' }, event.span.join(' / ')) : null,
    event.failed ? el('span', { className: 'count-error' }, 'failed') : null,
    ...diag,
    el('span', { className: 'location muted', title: event.path }, `line ${event.line}:${event.column}`),
    rawToggle,
  );

  const body = el('div', { className: 'event-body' });
  if (event.kind === 'tool-result') {
    const link = event.call
      ? eventLink(event.call.event, `← answers #${event.call.event}${event.callFunction ? ' ' + event.callFunction : ''}`)
      : el('span', { className: 'muted' }, 'not linked to a call');
    body.append(
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
  // A decision's reasoning is the point of the record: shown open.
  if (event.parts) body.append(...renderParts(event.parts, event.sourceKind === 'decision'));
  else if (event.json !== undefined) body.append(el('pre', { className: 'content' }, JSON.stringify(event.json, null, 2)));
  else if (event.text) body.append(foldedText(event.text));
  for (const call of event.toolCalls ?? []) body.append(renderCall(event, call));
  if (event.tools) body.append(el('p', {}, 'Tools: ', el('code', {}, event.tools.join(', '))));
  // Spans, markers and key-values have no content: their summary says what they are.
  if (!body.childNodes.length) body.append(event.summary ? foldedText(event.summary) : el('p', { className: 'muted' }, '(empty)'));

  return el('li', { className: classes.join(' '), id: `e-${event.index}`, 'data-index': event.index }, head, body, raw);
}
