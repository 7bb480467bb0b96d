// The viewer's parsing worker (client.js): starting it, calling it about
// the shown trace, and starting over after a wasm trap or a Cancel.

import { TraceWorker } from '../client.js';
import { abortError } from './shared.js';

/** Adds `newWorker`, `call`, `restartAfterTrap` and `cancelLoading` to the viewer context `v`. */
export function installWorkerLink(v) {
  const { state, $ } = v;

  function newWorker() {
    state.worker = new TraceWorker();
    return state.worker.ready;
  }

  /** Runs worker op `op` about the shown trace (its `traceId` unless `args` names another). */
  function call(op, args = {}, transfer = [], onProgress = null) {
    if (v.destroyed) return Promise.reject(abortError('the viewer was destroyed'));
    return state.worker.call(op, { traceId: state.info?.traceId, ...args }, transfer, onProgress);
  }

  /**
   * A wasm trap (out of memory on a huge file, an internal error) leaves the
   * module unusable: start a fresh worker. The traces it held are gone, so
   * files are parsed again when shown.
   */
  function restartAfterTrap() {
    state.worker.terminate();
    for (const f of state.files) delete f.info;
    state.info = null;
    $('trace').hidden = true;
    if (!v.destroyed) newWorker();
  }

  function cancelLoading() {
    state.worker.terminate();
    v.progress.stop();
    // Every trace lived in the terminated worker: start over.
    state.files = [];
    state.fileIndex = -1;
    state.info = null;
    $('trace').hidden = true;
    $('drop-hint').hidden = false;
    v.setStatus('Cancelled');
    v.rejectPending(abortError('the load was cancelled'));
    newWorker();
  }

  Object.assign(v, { newWorker, call, restartAfterTrap, cancelLoading });
}
