// A tool call as what it is: a shell command as a command, a file edit
// (old/new strings, a whole new file, or a patch) as a diff, anything else
// as a JSON tree of its arguments; its result beneath it, collapsed to its
// first lines when long, red when it failed, linked to its event in the
// event list; and the sub-agent run it started, when the format links one.

import { el } from '../../dom.js';
import { jsonTree } from '../../jsontree.js';
import { eventLink } from '../../events.js';
import { editDiff, patchDiff, isPatch } from './diff.js';
import { renderBlocks } from './content.js';

/** A result longer than this many lines (or characters) is shown collapsed to its first lines. */
const RESULT_LINES = 12;
const RESULT_CHARS = 1500;

const str = (v) => (typeof v === 'string' ? v : null);

/** The shell command of `args` (`command`/`cmd`, a string or argv), or null. */
function shellCommand(args) {
  const c = args.command ?? args.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.length && c.every((x) => typeof x === 'string')) {
    // `bash -lc "…"`: the script is the command.
    if (c.length === 3 && /(^|\/)(ba|z)?sh$/.test(c[0]) && /^-l?c$/.test(c[1])) return c[2];
    return c.map((x) => (/^[\w./:=@%+-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`)).join(' ');
  }
  return null;
}

/**
 * What the call's arguments are: { kind: 'edit', path, edits } |
 * { kind: 'patch', patch } | { kind: 'command', command } | { kind: 'json' },
 * with `used`, the argument names the shape shows (the rest are shown apart).
 */
export function classify(fn, args, argsText) {
  if (isPatch(argsText) && (!args || typeof args !== 'object')) return { kind: 'patch', patch: argsText, used: [] };
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { kind: 'json', used: [] };
  const path = str(args.file_path) ?? str(args.path) ?? str(args.filename) ?? str(args.target_file) ?? '';
  const pathKeys = ['file_path', 'path', 'filename', 'target_file'];
  const oldS = str(args.old_string) ?? str(args.old_str);
  const newS = str(args.new_string) ?? str(args.new_str);
  if (oldS !== null && newS !== null) return { kind: 'edit', path, edits: [{ old: oldS, new: newS }], used: [...pathKeys, 'old_string', 'new_string', 'old_str', 'new_str', 'command'] };
  if (Array.isArray(args.edits) && args.edits.length && args.edits.every((e) => e && str(e.old_string ?? e.old_str) !== null && str(e.new_string ?? e.new_str) !== null)) {
    return { kind: 'edit', path, edits: args.edits.map((e) => ({ old: e.old_string ?? e.old_str, new: e.new_string ?? e.new_str })), used: [...pathKeys, 'edits'] };
  }
  // A new file: Claude Code's Write, str_replace_editor's create.
  const created = str(args.file_text) ?? (/write|create/i.test(fn) ? str(args.content) : null);
  if (created !== null && path) return { kind: 'edit', path, edits: [{ old: '', new: created }], used: [...pathKeys, 'file_text', 'content', 'command'] };
  for (const key of ['patch', 'input', 'diff']) if (isPatch(args[key])) return { kind: 'patch', patch: args[key], used: [key] };
  const command = shellCommand(args);
  if (command !== null) {
    const argv = args.command ?? args.cmd;
    if (Array.isArray(argv) && argv[0] === 'apply_patch' && isPatch(argv[1])) return { kind: 'patch', patch: argv[1], used: ['command', 'cmd'] };
    if (isPatch(command) && /apply_patch/.test(command)) return { kind: 'patch', patch: command, used: ['command', 'cmd'] };
    return { kind: 'command', command, used: ['command', 'cmd'] };
  }
  return { kind: 'json', used: [] };
}

/** Arguments as `name: value` lines when they are all plain values, else a JSON tree. */
function argsView(obj, className) {
  const entries = Object.entries(obj);
  const plain = entries.every(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (!plain) return el('div', { className }, jsonTree(obj, 2));
  return el(
    'dl',
    { className: `${className} tr-kv` },
    ...entries.flatMap(([k, v]) => [
      el('dt', {}, k),
      el('dd', {}, typeof v === 'string' && (v.includes('\n') || v.length > 200) ? el('pre', { className: 'tr-text' }, v) : typeof v === 'string' ? v : JSON.stringify(v)),
    ]),
  );
}

function argumentsView(call) {
  const args = call.arguments;
  const shape = classify(call.function ?? '', args, call.argumentsText);
  const rest = args && typeof args === 'object' && !Array.isArray(args) ? Object.fromEntries(Object.entries(args).filter(([k]) => !shape.used.includes(k))) : null;
  const extra = rest && Object.keys(rest).length && shape.kind !== 'json' ? argsView(rest, 'tr-args-rest') : null;
  switch (shape.kind) {
    case 'command':
      return [el('pre', { className: 'tr-command' }, el('span', { className: 'tr-prompt', 'aria-hidden': 'true' }, '$ '), shape.command), extra];
    case 'edit':
      return [editDiff(shape.path, shape.edits), extra];
    case 'patch':
      return [patchDiff(shape.patch), extra];
    default:
      if (args !== null && args !== undefined && typeof args === 'object') return [Array.isArray(args) ? el('div', { className: 'tr-args' }, jsonTree(args, 2)) : argsView(args, 'tr-args')];
      if (call.argumentsText) return [el('pre', { className: 'tr-text' }, call.argumentsText)];
      return args === null || args === undefined ? [] : [el('pre', { className: 'tr-text' }, JSON.stringify(args))];
  }
}

function lineCount(text) {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A result's content, collapsed to its first lines when long, with a button to show it all. */
export function renderResult(result) {
  const failed = result.status === 'error' || result.failed;
  const body = el('div', { className: 'tr-result-body' }, ...renderBlocks(result.blocks));
  if (!result.blocks.length) body.append(el('span', { className: 'muted' }, '(empty)'));
  const text = result.blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  const lines = lineCount(text);
  const long = lines > RESULT_LINES || text.length > RESULT_CHARS || result.blocks.some((b) => b.type === 'json');
  const head = el(
    'div',
    { className: 'tr-result-head' },
    el('span', { className: 'tr-result-label' }, failed ? 'Result · failed' : 'Result'),
    ' ',
    eventLink(result.index, `#${result.index}`, 'this result in the event list'),
  );
  const box = el('div', { className: `tr-result${failed ? ' failed' : ''}`, 'data-event': result.index }, head, body);
  if (long) {
    body.classList.add('collapsed');
    const label = `Show all (${lines.toLocaleString('en-US')} lines)`;
    const toggle = el('button', { type: 'button', className: 'link tr-expand', 'aria-expanded': 'false', 'data-label': label }, label);
    toggle.addEventListener('click', () => setExpanded(box, body.classList.contains('collapsed')));
    box.append(toggle);
  }
  return box;
}

/** Opens or folds a result box (the search opens the ones holding a match). */
export function setExpanded(box, open) {
  const body = box.querySelector(':scope > .tr-result-body');
  const toggle = box.querySelector(':scope > .tr-expand');
  if (!body || !toggle) return;
  body.classList.toggle('collapsed', !open);
  toggle.setAttribute('aria-expanded', String(open));
  toggle.textContent = open ? 'Fold' : toggle.dataset.label;
}

/**
 * A call (`call`: ToolCallView) made by `event`, its result event when
 * there is one, and the sub-agent run it started (`subagent`: a run index)
 * rendered by `renderSubagent` when opened.
 */
export function renderCall(event, call, result, { subagent = null, renderSubagent = null } = {}) {
  const failed = event.kind === 'tool-call' && event.failed;
  const head = el(
    'div',
    { className: 'tr-call-head' },
    el('span', { className: 'tr-fn' }, call.function || '(no name)'),
    call.id ? el('span', { className: 'muted tr-call-id' }, ` ${call.id}`) : null,
    failed ? el('span', { className: 'count-error' }, ' failed') : null,
  );
  const box = el('div', { className: 'tr-call' }, head, ...argumentsView(call));
  if (result) box.append(renderResult(result));
  else if (call.result !== null && call.result !== undefined) box.append(el('p', { className: 'muted' }, 'Result: ', eventLink(call.result, `#${call.result}`, 'the result in the event list')));
  else box.append(el('p', { className: 'muted tr-no-result' }, 'no result'));
  if (subagent !== null && renderSubagent) box.append(renderSubagent(subagent));
  return box;
}
