// The redaction options and preview the page's exports share (a redacted
// file, a redacted bundle): the built-in detectors on or off, the user's
// own regexes and literal strings, and a table of what will be masked —
// each kind, how often, and its first placeholders next to the secret
// masked (its first characters at most: the preview never shows a secret).

import { el, clear } from '../dom.js';

/** Lines of a textarea, blank ones dropped. */
const lines = (textarea) => textarea.value.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * The options form, ids prefixed with `prefix`: { element, options() →
 * RedactOptions, onChange(fn) }.
 */
export function redactForm(prefix) {
  const builtin = el('input', { type: 'checkbox', id: `${prefix}builtin`, checked: true });
  const patterns = el('textarea', { id: `${prefix}patterns`, rows: 2, spellcheck: false, placeholder: 'e.g. internal-[0-9]+' });
  const literals = el('textarea', { id: `${prefix}literals`, rows: 2, spellcheck: false, placeholder: 'e.g. a customer name' });
  const element = el(
    'fieldset',
    { className: 'redact-form' },
    el('legend', {}, 'What to mask'),
    el('label', { className: 'redact-builtin' }, builtin, ' Built-in detectors: API keys and tokens (OpenAI, Anthropic, AWS, GitHub, Google, Slack), JWTs, bearer tokens, private keys, e-mail addresses'),
    el('label', { htmlFor: patterns.id }, 'Your regexes, one per line (a match, or its first group, is masked)'),
    patterns,
    el('label', { htmlFor: literals.id }, 'Literal strings, one per line'),
    literals,
  );
  return {
    element,
    options: () => ({ noBuiltin: !builtin.checked, patterns: lines(patterns), literals: lines(literals) }),
    onChange(fn) {
      for (const input of [builtin, patterns, literals]) input.addEventListener('input', fn);
    },
  };
}

/**
 * Redacts `bytes` in the worker (`call` is the viewer's worker call):
 * { bytes, report, examples }. The bytes move to the worker and back.
 */
export function redactInWorker(call, bytes, options) {
  const buffer = bytes.buffer.byteLength === bytes.byteLength ? bytes.buffer : bytes.slice().buffer;
  return call('redact', { buffer, options }, [buffer]);
}

/** How many secrets a report counts. */
export const maskedCount = (report) => report.kinds.reduce((n, k) => n + k.occurrences, 0);

const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** One sentence for a redaction: how many secrets of how many kinds, in how many strings. */
export function previewSummary(report) {
  const n = maskedCount(report);
  if (!n) return 'Nothing to mask: no secret was found with these options.';
  const unread = report.stringsUnread ? ` ${plural(report.stringsUnread, 'string')} could not be read (not UTF-8) and stay as they are.` : '';
  return `${plural(n, 'secret')} of ${plural(report.kinds.length, 'kind')} will be masked, in ${plural(report.stringsChanged, 'string')}.${unread}`;
}

/** The preview table: each kind, its counts, and its first placeholders with the secret masked. */
export function previewTable(result, id) {
  const byKind = new Map();
  for (const e of result.examples ?? []) {
    const kind = e.placeholder.slice('[REDACTED:'.length).replace(/:\d+\]$/, '');
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(e);
  }
  const examples = (kind) =>
    el('ul', { className: 'redact-examples' }, ...(byKind.get(kind) ?? []).map((e) => el('li', {}, el('code', {}, e.placeholder), ' ← ', el('span', { className: 'muted' }, e.masked))));
  return el(
    'table',
    { className: 'tools redact-preview', id },
    el('thead', {}, el('tr', {}, ...['kind', 'found', 'distinct', 'becomes (secret masked)'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, ...result.report.kinds.map((k) => el('tr', { 'data-kind': k.kind }, el('th', { scope: 'row' }, k.kind), el('td', { className: 'num' }, k.occurrences.toLocaleString('en-US')), el('td', { className: 'num' }, k.distinct.toLocaleString('en-US')), el('td', {}, examples(k.kind))))),
  );
}

/** Shows `result` (or an error) in `box`. */
export function showPreview(box, result, id) {
  clear(box);
  box.append(el('p', { className: 'redact-summary' }, previewSummary(result.report)));
  if (result.report.kinds.length) box.append(previewTable(result, id));
}
