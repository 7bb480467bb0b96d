// The diagnostics list: what is wrong, where, and what was expected.

import { el, clear } from './dom.js';

const SHOWN = 500;

export function renderDiagnostics(list, title, diagnostics) {
  clear(list);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  title.textContent = `Diagnostics: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  for (const d of diagnostics.slice(0, SHOWN)) {
    const where = `line ${d.line}:${d.column} · ${d.path}`;
    const item = el(
      'li',
      { className: `diagnostic severity-${d.severity}` },
      el('span', { className: `badge sev-${d.severity}` }, d.severity),
      el('code', { className: 'code' }, d.code),
      ' ',
      el('span', { className: 'message' }, d.message),
      el('div', { className: 'where muted' }, where),
      d.snippet ? el('pre', { className: 'snippet' }, d.snippet) : null,
    );
    if (d.event !== null && d.event !== undefined) {
      item.append(el('a', { href: `#e=${d.event}`, className: 'event-link', 'data-event': d.event }, `go to event #${d.event}`));
    }
    list.append(item);
  }
  if (diagnostics.length > SHOWN) {
    list.append(el('li', { className: 'muted' }, `… and ${diagnostics.length - SHOWN} more`));
  }
  return { errors, warnings };
}
