// The viewer's DOM skeleton: header (open controls, status, keys button),
// progress bar, the `?url=` confirmation, the paste panel, the start hint,
// the trace section (switchers, summary, tabs, the events view and the panel
// other views render into) and the keyboard help. Built once per mount;
// which parts exist follows the options. Every id is prefixed with `P`.

import { el } from '../dom.js';

function noSpellcheck(node) {
  node.spellcheck = false;
  return node;
}

/**
 * The skeleton for options `o` (see viewer.d.ts), element ids prefixed with
 * `P`; `dropTarget` is where dropped files open (null: nowhere).
 */
export function buildSkeleton(o, P, dropTarget) {
  const id = (name) => P + name;
  const sampleMenu = o.samples
    ? [el('label', { className: 'visually-hidden', htmlFor: id('sample-select') }, 'Load a sample trace'), el('select', { id: id('sample-select'), className: 'sample-select' }, el('option', { value: '' }, 'Samples…'))]
    : [];
  const openControls =
    o.controls || o.samples
      ? el(
          'div',
          { className: 'open-controls', role: 'group', 'aria-label': 'Open traces' },
          // Visually hidden, not `hidden`: the inputs stay in the tab order, their labels are the buttons.
          o.controls
            ? [
                el('input', { id: id('file-input'), className: 'visually-hidden file-input', type: 'file', multiple: true, accept: '.json,.jsonl,.ndjson,.gz,.eval,application/json' }),
                el('label', { className: 'button', htmlFor: id('file-input') }, 'Open files…'),
                el('input', { id: id('folder-input'), className: 'visually-hidden file-input', type: 'file', webkitdirectory: true }),
                el('label', { className: 'button', htmlFor: id('folder-input') }, 'Open folder…'),
                el('button', { id: id('paste-button'), type: 'button', className: 'button', 'aria-expanded': 'false', 'aria-controls': id('paste-panel') }, 'Paste JSON…'),
              ]
            : null,
          sampleMenu,
        )
      : null;
  // Shown once a trace is loaded: the redacted export and, where the build's file list is known, the bundle.
  const shareControls = o.controls
    ? el(
        'div',
        { id: id('share-controls'), className: 'open-controls share-controls', role: 'group', 'aria-label': 'Share the trace', hidden: true },
        el('button', { id: id('export-button'), type: 'button', className: 'button', 'aria-haspopup': 'dialog', title: 'Save this file with its secrets masked (a preview first)' }, 'Export redacted…'),
        o.bundleManifest ? el('button', { id: id('bundle-button'), type: 'button', className: 'button', 'aria-haspopup': 'dialog', title: 'Save a .zip of the viewer with the open traces, for any static host' }, 'Bundle…') : null,
      )
    : null;
  const header = el(
    'header',
    { className: 'top' },
    o.title ? el('h1', {}, String(o.title)) : null,
    openControls,
    shareControls,
    el('span', { id: id('status'), className: 'status muted', role: 'status', 'aria-live': 'polite' }, 'Loading the parser…'),
    el('button', { id: id('help-button'), type: 'button', className: 'button small', 'aria-haspopup': 'dialog', title: 'Keyboard shortcuts (?)' }, 'Keys ?'),
  );
  const progressBox = el(
    'section',
    { id: id('progress'), className: 'progress', hidden: true, 'aria-label': 'Loading' },
    el('span', { id: id('progress-label') }),
    el('progress', { id: id('progress-bar'), max: 1, value: 0, 'aria-labelledby': id('progress-label') }),
    el('span', { id: id('progress-text'), className: 'muted' }),
    el('button', { id: id('cancel'), type: 'button', className: 'button' }, 'Cancel'),
  );
  const urlConfirm = o.urlParam
    ? el(
        'section',
        { id: id('url-confirm'), className: 'notice', hidden: true, 'aria-labelledby': id('url-confirm-title') },
        el('p', { id: id('url-confirm-title') }, 'This link asks to load a trace from ', el('code', { id: id('url-target') }), '.'),
        el('p', { className: 'muted' }, 'Nothing is fetched until you say so; the file is then read here, in your browser.'),
        el('button', { id: id('url-load'), type: 'button', className: 'button primary' }, 'Load it'),
        el('button', { id: id('url-dismiss'), type: 'button', className: 'button' }, 'Dismiss'),
      )
    : null;
  const pastePanel = o.controls
    ? el(
        'section',
        { id: id('paste-panel'), className: 'notice paste-panel', hidden: true, 'aria-label': 'Paste a trace' },
        el('label', { htmlFor: id('paste-text') }, 'Paste a trace (JSON or JSON Lines):'),
        noSpellcheck(el('textarea', { id: id('paste-text'), rows: 8 })),
        el('button', { id: id('paste-load'), type: 'button', className: 'button primary' }, 'Load'),
        el('button', { id: id('paste-cancel'), type: 'button', className: 'button' }, 'Cancel'),
      )
    : null;
  const ways = [...(o.controls ? ['open them above', 'paste JSON'] : []), ...(o.samples ? ['pick a sample'] : [])];
  const waysText = ways.length > 1 ? `${ways.slice(0, -1).join(', ')}, or ${ways[ways.length - 1]}` : ways.join('');
  const hint = dropTarget
    ? [el('strong', {}, `Drop trace files or a folder ${dropTarget === document ? 'anywhere on this page' : 'here'}`), ways.length ? `, ${waysText}.` : '.']
    : ways.length
      ? [`To read a trace, ${waysText}.`]
      : ['No trace loaded yet.'];
  const filter = el(
    'form',
    { id: id('filter'), className: 'filter', autocomplete: 'off', role: 'search' },
    el('label', {}, 'Role ', el('select', { id: id('role-filter'), className: 'role-filter' }, el('option', { value: '' }, 'all'))),
    el(
      'label',
      { className: 'grow' },
      'Filter ',
      el('input', {
        id: id('query'),
        className: 'query',
        type: 'search',
        placeholder: 'text, "phrase", /regex/, role:tool, tool:name, is:error, after:2024-05-01, -negate, a OR b  (press /)',
        'aria-describedby': `${id('query-error')} ${id('match-count')}`,
      }),
    ),
    el('span', { id: id('match-count'), className: 'muted', 'aria-live': 'polite' }),
  );
  const trace = el(
    'section',
    { id: id('trace'), className: 'trace', hidden: true },
    el(
      'div',
      { className: 'trace-head' },
      el(
        'div',
        { className: 'switchers' },
        el('label', { id: id('file-switcher-label'), hidden: true }, 'File ', el('select', { id: id('file-switcher') })),
        el(
          'span',
          { id: id('run-switcher'), hidden: true },
          el('label', {}, 'Run ', el('select', { id: id('run-select') })),
          el(
            'label',
            {},
            'Runs matching ',
            el('input', { id: id('run-query'), className: 'run-query', type: 'search', placeholder: 'metadata.scores.correct:true', 'aria-describedby': `${id('run-query-error')} ${id('run-count')}` }),
          ),
          el('span', { id: id('run-count'), className: 'muted' }),
        ),
      ),
      el('p', { id: id('run-query-error'), className: 'query-error', role: 'alert', hidden: true }),
      el('div', { id: id('summary'), className: 'summary' }),
    ),
    el('div', { id: id('tabs'), className: 'tabs', role: 'tablist', 'aria-label': 'Views' }),
    el(
      'section',
      { id: id('view-events'), className: 'view view-events', role: 'tabpanel', 'aria-labelledby': id('tab-events') },
      filter,
      el('p', { id: id('query-error'), className: 'query-error', role: 'alert', hidden: true }),
      el('div', { id: id('facets'), className: 'facets', 'aria-label': 'Matches by role and tool' }),
      el(
        'div',
        { className: 'split' },
        el('div', { id: id('event-list'), className: 'vlist event-list', role: 'listbox', tabIndex: 0, 'aria-label': 'Events (j/k or arrows to move, Enter to open)' }),
        el('aside', { id: id('detail'), className: 'detail', 'aria-labelledby': id('detail-title'), hidden: true }),
      ),
    ),
    el('section', { id: id('view-other'), className: 'view', role: 'tabpanel', hidden: true }),
  );
  // One <main> per page: only the standalone page (which has a title) uses it.
  const main = el(
    o.title ? 'main' : 'div',
    { id: id('main'), className: 'main', tabIndex: -1 },
    el(
      'section',
      { id: id('drop-hint'), className: 'drop-hint' },
      el('p', {}, ...hint),
      el(
        'p',
        { className: 'muted' },
        'Formats this build reads: ',
        el('span', { id: id('format-list') }, '…'),
        ' — as JSON or JSON Lines, optionally gzipped. Nothing leaves your machine: files are parsed here, in WebAssembly.',
      ),
    ),
    el('section', { id: id('load-error'), className: 'load-error', role: 'alert', hidden: true }),
    trace,
  );
  const key = (keys, what) => [el('dt', {}, ...keys), el('dd', {}, what)];
  const kbd = (k) => el('kbd', {}, k);
  const help = el(
    'dialog',
    { id: id('help'), 'aria-labelledby': id('help-title') },
    el('h2', { id: id('help-title') }, 'Keyboard'),
    el(
      'dl',
      { className: 'keys' },
      key([kbd('j'), ' / ', kbd('↓')], 'next event'),
      key([kbd('k'), ' / ', kbd('↑')], 'previous event'),
      key([kbd('PgDn'), ' / ', kbd('PgUp')], 'a screen down / up'),
      key([kbd('g'), ' / ', kbd('Home'), ', ', kbd('G'), ' / ', kbd('End')], 'first / last event'),
      key([kbd('Enter')], 'open the selected event (or diagnostic)'),
      key([kbd('Esc')], 'close the detail pane, this help, or leave the filter box'),
      key([kbd('/')], 'focus the filter (in the Transcript: its search; Enter / Shift+Enter: next / previous match)'),
      key([kbd('1'), '…', kbd('9')], 'switch view (tab)'),
      key([kbd('?')], 'this list'),
    ),
    el('button', { id: id('help-close'), className: 'button', type: 'button' }, 'Close'),
  );
  const overlay = dropTarget
    ? el('div', { id: id('drop-overlay'), className: `drop-overlay${dropTarget === document ? '' : ' local'}`, hidden: true }, el('p', {}, 'Drop to open'))
    : null;
  return el(
    'div',
    { className: 'atv' },
    o.globalKeys ? el('a', { className: 'skip-link', href: `#${id('event-list')}` }, 'Skip to the events') : null,
    header,
    progressBox,
    urlConfirm,
    pastePanel,
    main,
    help,
    overlay,
  );
}
