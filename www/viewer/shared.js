// Small helpers the viewer's parts share.

/** The error a superseded, cancelled or destroyed load rejects with. */
export function abortError(message) {
  return typeof DOMException === 'function' ? new DOMException(message, 'AbortError') : Object.assign(new Error(message), { name: 'AbortError' });
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** What a trace's info says to the embedding app (the worker's handle stays inside). */
export function publicInfo(info) {
  const { traceId, ...rest } = info;
  return rest;
}

/** Lets the browser run other work (input, paint) between steps of a long job. */
export const yieldToBrowser = () => new Promise((r) => setTimeout(r, 0));
