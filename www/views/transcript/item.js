// One transcript item (page-data.js): a message as a chat turn (role, time,
// model and token chips, its content, its calls with their results), a
// call or an unlinked result on its own, a result shown under its call as
// nothing, and any other record as one line. Where a run begins, its header.

import { el } from '../../dom.js';
import { eventLink, shortTime } from '../../events.js';
import { renderBlocks } from './content.js';
import { renderCall, renderResult } from './tool-call.js';

const KNOWN_ROLES = new Set(['user', 'assistant', 'system', 'developer', 'tool']);

function compact(n) {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function chip(text, title, className = '') {
  return el('span', { className: `tr-chip ${className}`.trim(), title }, text);
}

/** The chips of an event's facts: model, tokens, duration. */
export function factChips(facts) {
  if (!facts) return [];
  const out = [];
  if (facts.model) out.push(chip(facts.model, 'model', 'tr-chip-model'));
  const u = facts.usage;
  if (u) {
    const parts = [`${u.inputTokens.toLocaleString('en-US')} in`, `${u.outputTokens.toLocaleString('en-US')} out`];
    if (u.cacheReadInputTokens) parts.push(`${u.cacheReadInputTokens.toLocaleString('en-US')} cache read`);
    if (u.cacheCreationInputTokens) parts.push(`${u.cacheCreationInputTokens.toLocaleString('en-US')} cache write`);
    if (u.reasoningOutputTokens) parts.push(`${u.reasoningOutputTokens.toLocaleString('en-US')} reasoning`);
    out.push(chip(`${compact(u.inputTokens)} → ${compact(u.outputTokens)} tok`, `tokens: ${parts.join(', ')}; ${u.totalTokens.toLocaleString('en-US')} in all`, 'tr-chip-tokens'));
  }
  if (typeof facts.durationMs === 'number') out.push(chip(facts.durationMs < 1000 ? `${Math.round(facts.durationMs)} ms` : `${(facts.durationMs / 1000).toFixed(1)} s`, 'duration', 'tr-chip-duration'));
  return out;
}

function roleClass(role) {
  return KNOWN_ROLES.has(role) ? `tr-role-${role}` : 'tr-role-other';
}

function header(event, label) {
  const flags = [];
  if (event.errors) flags.push(el('span', { className: 'r-flag count-error', title: `${event.errors} error(s)` }, `✖ ${event.errors}`));
  else if (event.warnings) flags.push(el('span', { className: 'r-flag count-warning', title: `${event.warnings} warning(s)` }, `⚠ ${event.warnings}`));
  return el(
    'div',
    { className: 'tr-head' },
    el('span', { className: 'tr-role' }, label),
    event.timestamp ? el('time', { className: 'tr-time muted', title: event.timestamp }, shortTime(event.timestamp)) : null,
    ...factChips(event.facts),
    ...flags,
    eventLink(event.index, `#${event.index}`, 'this event in the event list'),
  );
}

function runHeader(run) {
  const name = run.name ? `${run.name} · ` : '';
  return el('div', { className: 'tr-run' }, `Run #${run.index} · ${name}${run.id} · ${run.eventCount.toLocaleString('en-US')} events`);
}

/**
 * The node of `item`; `subagent(run)` renders the sub-agent run a call
 * started, where the format links one (see `runOf`).
 */
export function renderItem(item, { subagent } = {}) {
  const { event } = item;
  const out = el('div', { className: 'tr-entry' });
  if (item.runStart) out.append(runHeader(item.runStart));
  if (item.nested) {
    out.classList.add('tr-nested');
    return out;
  }
  // The run a call started (a sub-agent's: the run's `startedBy` names the call).
  const runOf = (c) => item.subagents?.[c.index] ?? null;
  const calls = (event.toolCalls ?? []).map((c) => renderCall(event, c, item.results[c.index] ?? null, { subagent: runOf(c), renderSubagent: subagent }));
  switch (event.kind) {
    case 'message': {
      const body = renderBlocks(event.blocks);
      if (!body.length && !calls.length) body.push(el('p', { className: 'muted' }, '(no content)'));
      out.append(el('article', { className: `tr-turn ${roleClass(event.role)}` }, header(event, event.role), el('div', { className: 'tr-body' }, ...body, ...calls)));
      return out;
    }
    case 'tool-call':
      out.append(el('article', { className: 'tr-turn tr-role-call' }, header(event, 'tool call'), el('div', { className: 'tr-body' }, ...calls)));
      return out;
    case 'tool-result': {
      const link = event.call ? eventLink(event.call.event, `← call #${event.call.event}${event.callFunction ? ` ${event.callFunction}` : ''}`, 'the call this answers') : el('span', { className: 'muted' }, 'not linked to a call');
      out.append(el('article', { className: 'tr-turn tr-role-tool' }, header(event, 'tool result'), el('div', { className: 'tr-body' }, el('p', { className: 'tr-answers' }, link), renderResult(event))));
      return out;
    }
    default:
      out.append(
        el(
          'div',
          { className: `tr-note tr-kind-${event.kind}${event.failed ? ' failed' : ''}` },
          el('span', { className: 'badge' }, event.kind === 'marker' || event.kind === 'span' ? event.sourceKind || event.kind : event.kind),
          ' ',
          el('span', { className: 'tr-note-text' }, event.summary || event.sourceKind),
          ' ',
          eventLink(event.index, `#${event.index}`, 'this event in the event list'),
        ),
      );
      return out;
  }
}
