// AgentRun text: the run as Docent renders it for LLMs (legacy or current
// style), with its cl100k token count, copy, download, and the chunks a
// token limit splits it into. The text is built in the worker by the core
// (src/render/); the page only shows it, as text.

import { el, clear } from '../dom.js';

/** Characters of one piece shown on the page; copy and download take all of it. */
const SHOWN_CHARS = 2_000_000;

const METADATA_SECTIONS = [
  ['agent_run_metadata', 'run'],
  ['transcript_group_metadata', 'transcript group'],
  ['transcript_metadata', 'transcript'],
  ['message_metadata', 'message'],
];

/** The options the controls describe, as `trace.toAgentRunText` takes them. */
function readOptions(form, run) {
  const style = form.elements.style.value;
  const options = { style, run };
  if (style === 'legacy') {
    const limit = form.elements.tokenLimit.value.trim();
    if (limit !== '') {
      const n = Number(limit);
      if (!Number.isInteger(n) || n < 1) throw new Error('The token limit must be a whole number of at least 1.');
      options.tokenLimit = n;
    }
    return options;
  }
  const custom = form.elements.context.value.trim();
  if (custom) {
    try {
      options.context = JSON.parse(custom);
    } catch (e) {
      throw new Error(`The context config is not JSON: ${e.message}`);
    }
    return options;
  }
  const context = { type: 'agent_run' };
  for (const [key] of METADATA_SECTIONS) {
    if (form.elements[key].checked) context[key] = { include: ['*'], exclude: [] };
  }
  if (Object.keys(context).length > 1) options.context = context;
  return options;
}

function fileName(info, options) {
  const base = (info.name || 'trace').replace(/\.(jsonl?|ndjson|gz)+$/i, '').replace(/[^\w.-]+/g, '_');
  return `${base}.run${options.run}.${options.style}.txt`;
}

function plural(n, word) {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

function textBlock(piece, label) {
  const pre = el('pre', { className: 'agentrun-text', tabIndex: 0, 'aria-label': label });
  pre.textContent = piece.text;
  const cut = piece.length > piece.text.length
    ? el('p', { className: 'muted' }, `Showing the first ${piece.text.length.toLocaleString()} of ${piece.length.toLocaleString()} characters; copy or download for all of it.`)
    : null;
  return [pre, cut];
}

export const agentRunView = {
  id: 'agentrun',
  label: 'AgentRun text',
  available: (info) => info.runCount > 0,
  render(panel, ctx) {
    const { info } = ctx;
    const run = ctx.run ?? 0;
    const form = el(
      'form',
      { className: 'agentrun-controls', id: ctx.id('agentrun-form'), autocomplete: 'off' },
      el(
        'label',
        {},
        'Style ',
        el(
          'select',
          { name: 'style', id: ctx.id('agentrun-style') },
          el('option', { value: 'current' }, 'current (docent 0.1.88)'),
          el('option', { value: 'legacy' }, 'legacy (docent-python 0.1.3a0)'),
        ),
      ),
      el(
        'fieldset',
        { className: 'agentrun-current', id: ctx.id('agentrun-metadata') },
        el('legend', {}, 'Show metadata of'),
        ...METADATA_SECTIONS.map(([key, label]) => el('label', {}, el('input', { type: 'checkbox', name: key }), ` ${label}`)),
      ),
      el(
        'details',
        { className: 'agentrun-current' },
        el('summary', {}, 'Docent context config (JSON)'),
        el('label', { className: 'visually-hidden', htmlFor: ctx.id('agentrun-context') }, 'AgentRunContextConfig as JSON'),
        el('textarea', { name: 'context', id: ctx.id('agentrun-context'), rows: 6, spellcheck: false, placeholder: '{"type": "agent_run", "agent_run_metadata": {"include": ["*"], "exclude": []}}' }),
        el('p', { className: 'muted' }, 'Docent’s own AgentRunContextConfig; when given it replaces the checkboxes.'),
      ),
      el(
        'label',
        { className: 'agentrun-legacy' },
        'Token limit ',
        el('input', { type: 'number', name: 'tokenLimit', id: ctx.id('agentrun-token-limit'), min: 1, step: 1, placeholder: 'none', inputMode: 'numeric' }),
      ),
      el('button', { type: 'submit', className: 'button' }, 'Render'),
    );
    const copy = el('button', { type: 'button', className: 'button', id: ctx.id('agentrun-copy') }, 'Copy');
    const download = el('button', { type: 'button', className: 'button', id: ctx.id('agentrun-download') }, 'Download .txt');
    const summary = el('p', { className: 'agentrun-summary', id: ctx.id('agentrun-summary'), role: 'status', 'aria-live': 'polite' });
    const error = el('p', { className: 'query-error', id: ctx.id('agentrun-error'), role: 'alert', hidden: true });
    const output = el('div', { className: 'agentrun-output', id: ctx.id('agentrun-output') });
    panel.append(
      el('h2', { className: 'view-title' }, `AgentRun text of run #${run}${info.runCount > 1 ? ` of ${info.runCount}` : ''}`),
      el('p', { className: 'muted' }, 'The run as Docent renders it for LLMs, byte for byte. Token counts are tiktoken’s cl100k_base.'),
      form,
      el('div', { className: 'agentrun-actions' }, copy, download, summary),
      error,
      output,
    );

    let options = null;
    let seq = 0;
    const syncControls = () => {
      const legacy = form.elements.style.value === 'legacy';
      for (const node of form.querySelectorAll('.agentrun-current')) node.hidden = legacy;
      for (const node of form.querySelectorAll('.agentrun-legacy')) node.hidden = !legacy;
    };

    const show = async () => {
      const mine = ++seq;
      error.hidden = true;
      try {
        options = readOptions(form, run);
      } catch (e) {
        error.textContent = e.message;
        error.hidden = false;
        return;
      }
      summary.textContent = 'Rendering…';
      let result;
      try {
        result = await ctx.call('agentRunText', { options, maxChars: SHOWN_CHARS });
      } catch (e) {
        if (mine !== seq) return;
        summary.textContent = '';
        error.textContent = `Docent cannot render this run: ${e.message}`;
        error.hidden = false;
        clear(output);
        return;
      }
      if (mine !== seq) return;
      clear(output);
      if (result.chunks) {
        const total = result.chunks.reduce((n, c) => n + c.tokens, 0);
        summary.textContent = `${plural(result.chunks.length, 'chunk')} of at most ${options.tokenLimit.toLocaleString()} tokens (${plural(total, 'token')} in all)`;
        if (result.chunks.length === 0) {
          // Docent's own answer for this run and limit: say why rather than show nothing.
          summary.textContent += ': docent-python gives no chunks for this run at this limit (its 50-token margin leaves no room, and a transcript with no messages is dropped); raise the limit.';
        }
        result.chunks.forEach((chunk, i) => {
          const label = `Chunk ${i + 1} of ${result.chunks.length}`;
          const copyChunk = el('button', { type: 'button', className: 'button small' }, 'Copy chunk');
          copyChunk.addEventListener('click', () => copyText(copyChunk, 'Copy chunk', async () => (await ctx.call('agentRunFullText', { options }))[i]));
          output.append(
            el(
              'section',
              { className: 'agentrun-chunk', 'aria-label': label },
              el('h3', {}, `${label} · ${plural(chunk.tokens, 'token')} · ${plural(chunk.length, 'character')} `, copyChunk),
              ...textBlock(chunk, label),
            ),
          );
        });
        return;
      }
      output.append(...textBlock(result, 'AgentRun text'));
      summary.textContent = `${plural(result.length, 'character')} · counting tokens…`;
      try {
        const tokens = await ctx.call('agentRunTokenCount', { options });
        if (mine === seq) summary.textContent = `${plural(result.length, 'character')} · ${plural(tokens, 'token')} (cl100k_base)`;
      } catch (e) {
        if (mine === seq) summary.textContent = `${plural(result.length, 'character')} · tokens not counted: ${e.message}`;
      }
    };

    // Chunks are joined by a blank line in the copy and the download of the whole.
    const fullText = async () => {
      const text = await ctx.call('agentRunFullText', { options });
      return Array.isArray(text) ? text.join('\n\n') : text;
    };
    const copyText = async (button, label, get) => {
      try {
        await navigator.clipboard.writeText(await get());
        button.textContent = 'Copied';
      } catch {
        // No clipboard permission: select the shown text so that Ctrl+C copies it.
        const pre = button.closest('section')?.querySelector('pre') ?? output.querySelector('pre');
        if (pre) getSelection().selectAllChildren(pre);
        button.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => (button.textContent = label), 2000);
    };

    copy.addEventListener('click', () => options && copyText(copy, 'Copy', fullText));
    download.addEventListener('click', async () => {
      if (!options) return;
      const blob = new Blob([await fullText()], { type: 'text/plain;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const a = el('a', { href: url, download: fileName(info, options) });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      show();
    });
    form.addEventListener('change', (e) => {
      if (e.target.name === 'style') syncControls();
      if (e.target.name !== 'context' && e.target.name !== 'tokenLimit') show();
    });
    syncControls();
    return show();
  },
};
