// An archive opened lazily (a large Inspect `.eval`, worker.js
// `openLazily`): its runs table comes first, each run's body is read from
// the file when the run is shown. `ensureRunBody` does that for the run
// picked (the run switcher, a runs-table row, a link's `r=`): the worker
// makes the trace again with that run's body (same traceId, the run's
// events as the whole archive reads them) and the shown info follows.

/** Adds `ensureRunBody` to the viewer context `v`. */
export function installLazyRuns(v) {
  const { state, $ } = v;

  /**
   * Reads the picked run's body when it is not read yet; resolves to true
   * when the trace changed (the caller then shows it again).
   */
  async function ensureRunBody() {
    const info = state.info;
    const run = state.run;
    const r = run === null ? null : info?.runs?.[run];
    if (!info?.lazy || !r?.pendingBody) return false;
    v.setStatus(`Reading sample ${r.id} from the file…`);
    let next;
    try {
      next = await v.call('loadRun', { run });
    } catch (e) {
      if (state.info === info) v.setStatus(`Could not read sample ${r.id}: ${e.message}`);
      return false;
    }
    if (!next || state.info !== info) return false;
    const source = state.files[state.fileIndex];
    if (source?.info === info) source.info = next;
    state.info = next;
    if (state.selected !== null && state.selected >= next.eventCount) state.selected = null;
    v.renderSummary(next);
    // The run's events may bring views (the Transcript, spans) the summaries had none for.
    v.renderTabs();
    v.renderRunOptions(null);
    if (state.run !== null) $('run-select').value = String(state.run);
    v.setStatus(`Read sample ${r.id} in ${next.parseMs.toFixed(0)} ms · ${next.lazy.pendingRuns.toLocaleString('en-US')} samples not read yet`);
    return true;
  }

  Object.assign(v, { ensureRunBody });
}
