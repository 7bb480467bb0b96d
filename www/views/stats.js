// Stats: counts by role, kind and record kind; per-tool calls and failures;
// token usage and the cost the trace reports. Every number comes from the core (`trace.stats()`, the same
// computation the CLI's `stats` prints); nothing is counted here.

import { append, el } from '../dom.js';

function countTable(title, counts, onPick) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  return el(
    'section',
    { className: 'stat-block' },
    el('h3', {}, title),
    entries.length
      ? el(
          'table',
          { className: 'counts' },
          el('tbody', {}, ...entries.map(([name, n]) => {
            const bar = el('span', { className: 'bar' });
            bar.style.width = `${(100 * n) / max}%`;
            const pick = onPick ? el('button', { type: 'button', className: 'link', title: `show only these events` }, name) : name;
            pick.addEventListener?.('click', () => onPick(name));
            return el('tr', {}, el('th', { scope: 'row' }, pick), el('td', { className: 'num' }, n.toLocaleString()), el('td', { className: 'bar-cell' }, bar));
          })),
        )
      : el('p', { className: 'muted' }, 'none'),
  );
}

/** Token usage in all and per model, as the trace reports it. */
function usageBlock(usage) {
  const row = (name, u) => el('tr', {}, el('th', { scope: 'row' }, name), ...[u.inputTokens, u.outputTokens, u.cacheReadInputTokens, u.cacheCreationInputTokens, u.totalTokens].map((n) => el('td', { className: 'num' }, n.toLocaleString())));
  const models = Object.entries(usage.byModel).map(([m, u]) => row(m || '(model not named)', u));
  return el(
    'section',
    { className: 'stat-block' },
    el('h3', {}, `Tokens (${usage.events.toLocaleString()} model calls)`),
    el(
      'table',
      { className: 'tools' },
      el('thead', {}, el('tr', {}, ...['model', 'input', 'output', 'cache read', 'cache write', 'total'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...models, ...(models.length > 1 ? [row('all', usage.total)] : [])),
    ),
  );
}

/**
 * Dollars to three significant digits below a cent, cents above, at least two
 * decimals and at most ten (`$0.0000103`, `$0.000402`, `$1.50`), as the CLI prints them.
 */
export function dollars(x) {
  if (x < 0) return `-${dollars(-x)}`;
  const decimals = x === 0 ? 2 : Math.max(2, Math.min(10, 2 - Math.floor(Math.log10(Math.abs(x)))));
  const [whole, frac = ''] = x.toFixed(decimals).split('.');
  return `$${whole}.${frac.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The cost the trace reports (USD), in all and per model; never priced here. */
function costBlock(cost, calls) {
  const part = (x) => (x === undefined ? '—' : dollars(x));
  const row = (name, c) => el('tr', {}, el('th', { scope: 'row' }, name), ...[part(c.input), part(c.output), dollars(c.total)].map((t) => el('td', { className: 'num' }, t)));
  const models = Object.entries(cost.byModel).map(([m, c]) => row(m || '(model not named)', c));
  const of = calls ? ` of ${calls.toLocaleString()}` : '';
  return el(
    'section',
    { className: 'stat-block', id: 'stats-cost' },
    el('h3', {}, `Cost (reported by ${cost.events.toLocaleString()}${of} model calls)`),
    el(
      'table',
      { className: 'tools' },
      el('thead', {}, el('tr', {}, ...['model', 'input', 'output', 'total'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...models, ...(models.length > 1 ? [row('all', cost.total)] : [])),
    ),
    el('p', { className: 'muted' }, 'In US dollars, as the trace itself reports it; calls that report no cost are not in the sum, and nothing is priced here.'),
  );
}

export const statsView = {
  id: 'stats',
  label: 'Stats',
  available: () => true,
  async render(panel, ctx) {
    const { info } = ctx;
    const { tools, unlinkedResults, usage } = info.stats;
    const facets = (await ctx.call('filter', { query: '' })).facets;
    const quote = (v) => (/[\s()"]/.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : v);
    const toolRows = tools.map((t) => {
      const pick = el('button', { type: 'button', className: 'link' }, t.tool);
      pick.addEventListener('click', () => ctx.setQuery(`tool:${quote(t.tool)}`));
      const failures = el('td', { className: `num${t.failures ? ' count-error' : ''}` }, t.failures.toLocaleString());
      return el('tr', {}, el('th', { scope: 'row' }, pick), el('td', { className: 'num' }, t.calls.toLocaleString()), el('td', { className: 'num' }, t.answered.toLocaleString()), el('td', { className: 'num' }, t.unanswered.toLocaleString()), failures);
    });
    append(
      panel,
      el('h2', { className: 'visually-hidden' }, 'Stats'),
      el(
        'div',
        { className: 'stat-grid' },
        countTable('By role', facets.role, (r) => ctx.setQuery(`role:${quote(r)}`)),
        countTable('By kind', facets.kind, (k) => ctx.setQuery(`kind:${quote(k)}`)),
        countTable('By record kind', facets.sourceKind, (k) => ctx.setQuery(`kind:${quote(k)}`)),
      ),
      el(
        'section',
        { className: 'stat-block' },
        el('h3', {}, `Tools (${info.stats.toolCalls.toLocaleString()} calls, ${info.stats.linkedResults.toLocaleString()} linked results)`),
        tools.length
          ? el(
              'table',
              { className: 'tools', id: ctx.id('tool-table') },
              el('thead', {}, el('tr', {}, ...['tool', 'calls', 'answered', 'unanswered', 'failures'].map((h) => el('th', { scope: 'col' }, h)))),
              el('tbody', {}, ...toolRows),
            )
          : el('p', { className: 'muted' }, 'No tool calls in this trace.'),
        unlinkedResults.results
          ? el('p', { className: 'muted' }, `${unlinkedResults.results.toLocaleString()} results answer no call (${unlinkedResults.failures.toLocaleString()} failed).`)
          : null,
        el('p', { className: 'muted' }, 'A call failed when its result says so (an error status, is_error, an error observation); validation diagnostics are in Diagnostics.'),
      ),
      usage.events ? usageBlock(usage) : null,
      usage.cost ? costBlock(usage.cost, usage.events) : null,
    );
  },
};
