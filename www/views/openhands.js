// OpenHands' own views of a conversation: the condensed view (what is left
// after the condenser's Condensation events are applied, as the SDK's
// View.from_events does) and the LLM message stream (events_to_messages:
// what the model was actually sent). Both are computed by the core; each
// entry links to its trace events.

import { el } from '../dom.js';
import { VirtualList } from '../vlist.js';
import { eventLink, renderRow } from '../events.js';

const isOpenHands = (info) => info.format === 'openhands';

function runTitle(ctx, what) {
  const run = ctx.run ?? 0;
  return `${what} of run #${run}${ctx.info.runCount > 1 ? ` of ${ctx.info.runCount}` : ''}`;
}

function renderCondensedEntry(entry, pos) {
  const node = condensedEntryNode(entry, pos);
  node.dataset.sdkId = entry.id;
  node.dataset.sdkKind = entry.kind;
  return node;
}

function condensedEntryNode(entry, pos) {
  if (entry.summary !== undefined && entry.summary !== null) {
    return el(
      'div',
      { className: 'r oh-summary' },
      el('span', { className: 'r-index' }, `${pos + 1}.`),
      el('span', { className: 'badge badge-summary' }, 'summary'),
      el('span', { className: 'r-summary' }, entry.summary),
      entry.event !== null ? eventLink(entry.event, `#${entry.event}`, 'the condensation that wrote this summary') : null,
    );
  }
  if (!entry.row) return el('div', { className: 'r' }, el('span', { className: 'r-index' }, `${pos + 1}.`), el('span', { className: 'muted' }, `${entry.kind} ${entry.id}`));
  return renderRow(entry.row);
}

export const condensedView = {
  id: 'openhands-condensed',
  label: 'Condensed',
  available: isOpenHands,
  async render(panel, ctx) {
    const run = ctx.run ?? 0;
    const head = await ctx.call('condensed', { run });
    const notes = [`${head.count.toLocaleString()} events remain`, `${head.dropped.toLocaleString()} forgotten by condensations`];
    panel.append(
      el('h2', { className: 'view-title' }, runTitle(ctx, 'Condensed view')),
      el('p', { className: 'muted', id: ctx.id('condensed-summary') }, `${notes.join(', ')}. This is the history the agent's condenser left for the LLM (OpenHands' View.from_events).`),
    );
    if (head.unhandledCondensationRequest) panel.append(el('p', { className: 'notice' }, 'The run ends with a condensation request that no condensation answered.'));
    if (!head.count) {
      panel.append(el('p', { className: 'muted' }, 'No OpenHands SDK events in this run.'));
      return;
    }
    const root = el('div', { className: 'vlist event-list', id: ctx.id('condensed-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'Condensed view' });
    panel.append(root);
    const list = new VirtualList(root, {
      rowHeight: 30,
      idPrefix: ctx.id('condensed'),
      fetchRows: (start, end) => ctx.call('condensed', { run, start, count: end - start }),
      renderRow: renderCondensedEntry,
      onActivate: async (pos) => {
        list.select(pos, { scroll: false });
        const [entry] = await ctx.call('condensed', { run, start: pos, count: 1 });
        if (entry && entry.event !== null) ctx.goto(entry.event);
      },
    });
    list.reset(head.count);
    panel.list = list;
  },
};

function renderMessage(message, pos) {
  const parts = [el('span', { className: 'r-index' }, `${pos + 1}.`), el('span', { className: `badge badge-${message.role.replace(/[^a-z0-9-]/gi, '_')}` }, message.role)];
  const first = message.rows[0];
  const summaries = message.summaries?.length ? el('span', { className: 'muted' }, `[condensation summary] ${message.summaries.join(' ')} `) : null;
  const text = first ? first.summary : '';
  parts.push(el('span', { className: 'r-summary' }, summaries, text || (summaries ? '' : el('span', { className: 'muted' }, `${message.contentParts} content parts`))));
  if (message.toolCallIds?.length > 1) parts.push(el('span', { className: 'muted', title: message.toolCallIds.join(', ') }, `${message.toolCallIds.length} tool calls`));
  if (message.toolCallId) parts.push(el('span', { className: 'muted', title: 'tool_call_id' }, message.toolCallId));
  for (const i of message.events.slice(0, 4)) parts.push(eventLink(i, `#${i}`, 'a trace event in this message'));
  if (message.events.length > 4) parts.push(el('span', { className: 'muted' }, `+${message.events.length - 4}`));
  return el('div', { className: 'r', 'data-role': message.role, 'data-tool-call-ids': (message.toolCallIds ?? [message.toolCallId ?? '']).join(' ') }, ...parts);
}

export const llmMessagesView = {
  id: 'openhands-llm',
  label: 'LLM messages',
  available: isOpenHands,
  async render(panel, ctx) {
    const run = ctx.run ?? 0;
    const head = await ctx.call('llmMessages', { run });
    panel.append(
      el('h2', { className: 'view-title' }, runTitle(ctx, 'LLM messages')),
      el('p', { className: 'muted', id: ctx.id('llm-summary') }, `${head.count.toLocaleString()} messages, as OpenHands' events_to_messages sends the condensed history to the model (batched tool calls become one assistant message).`),
    );
    if (head.error) panel.append(el('p', { className: 'load-error', role: 'alert' }, `The SDK's conversion stops here: ${head.error}`));
    if (!head.count) {
      panel.append(el('p', { className: 'muted' }, 'No messages in this run.'));
      return;
    }
    const root = el('div', { className: 'vlist event-list', id: ctx.id('llm-list'), role: 'listbox', tabIndex: 0, 'aria-label': 'LLM messages' });
    panel.append(root);
    const list = new VirtualList(root, {
      rowHeight: 30,
      idPrefix: ctx.id('llm'),
      fetchRows: (start, end) => ctx.call('llmMessages', { run, start, count: end - start }),
      renderRow: renderMessage,
      onActivate: async (pos) => {
        list.select(pos, { scroll: false });
        const [message] = await ctx.call('llmMessages', { run, start: pos, count: 1 });
        if (message?.events.length) ctx.goto(message.events[0]);
      },
    });
    list.reset(head.count);
    panel.list = list;
  },
};
