// The page's side of the worker protocol (see worker.js): every call is a
// promise; `terminate()` cancels everything in flight (used by Cancel).

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

export class TraceWorker {
  constructor() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'agent-trace-viewer' });
    this.pending = new Map();
    this.nextId = 1;
    this.ready = new Promise((resolve, reject) => {
      this.worker.addEventListener('message', ({ data }) => {
        if ('ready' in data) {
          if (data.ready) resolve();
          else reject(new Error(data.error.message));
          return;
        }
        const p = this.pending.get(data.id);
        if (!p) return;
        if (data.progress) {
          p.onProgress?.(data.progress);
          return;
        }
        this.pending.delete(data.id);
        if (data.ok) p.resolve(data.value);
        else p.reject(Object.assign(new Error(data.error.message), { column: data.error.column, fatal: data.error.name === 'RuntimeError' }));
      });
      this.worker.addEventListener('error', (e) => {
        const error = new Error(`the parser worker failed: ${e.message || 'it could not start'}`);
        reject(error);
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
      });
    });
  }

  /**
   * Runs `op` in the worker; `transfer` lists buffers to move rather than
   * copy; `onProgress` receives the op's progress reports.
   */
  call(op, args = {}, transfer = [], onProgress = null) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, op, args }, transfer);
    });
  }

  /** Stops the worker at once (a parse in progress included); pending calls reject with Cancelled. */
  terminate() {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Cancelled());
    this.pending.clear();
  }
}
