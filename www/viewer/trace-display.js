// The shown trace's frame: the summary (format and why, counts, "Read as"),
// the file and run switchers, the tabs, and `showTrace`, which builds them
// for a newly shown trace in a few short tasks.

import { el, clear } from '../dom.js';
import { viewsFor } from '../views/index.js';
import { formatBytes, yieldToBrowser } from './shared.js';

/** Options shown in the run menu; more are reached through the run filter (a
 * menu of thousands of options costs the page a long layout). */
const RUN_OPTIONS = 100;

/**
 * Adds `renderFileSwitcher`, `renderRunOptions`, `renderTabs` and `showTrace`
 * to the viewer context `v`.
 */
export function installTraceDisplay(v) {
  const { state, $, P } = v;

  function renderSummary(info) {
    const { stats, detection } = info;
    const facts = [
      ['format', `${info.format}${detection.forced ? ' (forced)' : ''}`],
      ['layout', layoutFact(info)],
      ['runs', stats.runs],
      ['events', stats.events],
      ['tool calls', stats.toolCalls],
      ['linked results', stats.linkedResults],
      ['errors', stats.errors],
      ['warnings', stats.warnings],
      // An archive opened lazily: the file's size and how much of it was read.
      ['size', info.lazy ? `${formatBytes(info.lazy.fileBytes)} (${formatBytes(info.lazy.bytesRead)} read)` : formatBytes(info.byteLength)],
      ['parsed in', `${info.parseMs.toFixed(0)} ms`],
    ];
    // An archive opened lazily: how many runs' bodies are still in the file.
    if (info.lazy) facts.push(['samples not read yet', info.lazy.pendingRuns]);
    clear($('summary')).append(
      el('dl', {}, ...facts.flatMap(([k, value]) => [el('dt', {}, k), el('dd', { 'data-fact': k }, typeof value === 'number' ? value.toLocaleString('en-US').replace(/,/g, '') : value)])),
      el(
        'details',
        { className: 'detection' },
        el('summary', {}, `Why ${info.format}? (confidence ${Math.round(detection.confidence * 100)}%)`),
        el('ul', {}, ...detection.evidence.map((e) => el('li', {}, e))),
        detection.runnerUp ? el('p', { className: 'muted' }, `Runner-up: ${detection.runnerUp}`) : null,
      ),
      readAsMenu(info),
    );
  }

  /** JSON or JSONL for one file; for several read as one trace (a folder, an
   * archive's members) their count, since the joined source's layout says
   * nothing about the files the user gave. */
  function layoutFact(info) {
    if (info.lazy) return 'ZIP archive';
    return info.fileCount > 1 ? `${info.fileCount} files` : info.layout.toUpperCase();
  }

  /** "Read as": parse the file again as a format the user names, or back to detection. */
  function readAsMenu(info) {
    const select = el(
      'select',
      { id: `${P}format-select` },
      el('option', { value: '', selected: !info.detection.forced }, 'detected format'),
      ...state.formats.map((f) => el('option', { value: f, selected: info.detection.forced && f === info.format }, f)),
    );
    select.addEventListener('change', () => {
      const source = state.files[state.fileIndex];
      if (!source) return;
      v.call('free', { traceId: source.info.traceId }).catch(() => {});
      delete source.info;
      source.format = select.value || undefined;
      v.openFile(state.fileIndex).catch(() => {});
    });
    return el('label', { className: 'read-as' }, 'Read as ', select);
  }

  function renderFileSwitcher() {
    const label = $('file-switcher-label');
    label.hidden = state.files.length < 2;
    const select = clear($('file-switcher'));
    state.files.forEach((f, i) => {
      const note = f.error ? ' (failed)' : f.info ? ` (${f.info.eventCount} events)` : '';
      select.append(el('option', { value: String(i), selected: i === state.fileIndex }, `${f.path ?? f.name}${note}`));
    });
  }


  function renderRunOptions(runIndices) {
    const runs = state.info.runs;
    const shown = runIndices ? [...runIndices] : runs.map((_, i) => i);
    if (state.run !== null && !shown.slice(0, RUN_OPTIONS).includes(state.run)) shown.unshift(state.run);
    const options = [el('option', { value: '' }, `all ${runs.length.toLocaleString()} runs`)];
    for (const i of shown.slice(0, RUN_OPTIONS)) {
      const r = runs[i];
      // A lazily opened archive's run whose sample is not read yet has only its summary's events.
      const events = r.pendingBody ? 'not read yet' : `${r.eventCount} events`;
      options.push(el('option', { value: String(i), selected: i === state.run }, `#${i} ${r.name ?? r.id} (${events})`));
    }
    if (shown.length > RUN_OPTIONS) options.push(el('option', { disabled: true }, `… ${(shown.length - RUN_OPTIONS).toLocaleString()} more: use the run filter`));
    clear($('run-select')).append(...options);
    $('run-count').textContent = runIndices ? `${runIndices.length.toLocaleString()} of ${runs.length.toLocaleString()} runs` : '';
  }

  function renderTabs() {
    const tabs = clear($('tabs'));
    for (const [n, view] of viewsFor(state.info).entries()) {
      const selected = view.id === state.view;
      const tab = el(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `${P}tab-${view.id}`,
          'aria-selected': String(selected),
          'aria-controls': P + (view.id === 'events' ? 'view-events' : 'view-other'),
          tabIndex: selected ? 0 : -1,
          'data-view': view.id,
          title: `${view.label} (${n + 1})`,
        },
        view.label,
      );
      tab.addEventListener('click', () => v.setView(view.id, { push: true }));
      tabs.append(tab);
    }
  }

  /** Builds the UI for `state.info` in a few short tasks, not one long one. */
  async function showTrace() {
    const info = state.info;
    $('drop-hint').hidden = true;
    $('trace').hidden = false;
    renderSummary(info);
    await yieldToBrowser();
    if (state.info !== info) return;
    const roles = clear($('role-filter'));
    roles.append(el('option', { value: '' }, 'all'));
    for (const [role, n] of Object.entries(info.stats.byRole)) roles.append(el('option', { value: role }, `${role} (${n})`));
    $('run-switcher').hidden = info.runCount < 2;
    $('run-query').value = '';
    $('run-query-error').hidden = true;
    if (info.runCount > 1) renderRunOptions(null);
    v.closeDetail({ write: false });
    await yieldToBrowser();
    if (state.info !== info) return;
    state.selected = null;
    state.announced = null;
    await v.applyHash(v.hashParams(), { fresh: true });
  }

  Object.assign(v, { renderSummary, renderFileSwitcher, renderRunOptions, renderTabs, showTrace });
}
