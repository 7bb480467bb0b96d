// Saving bytes the page made (a redacted trace, a bundle) as a file: a Blob
// URL and an <a download>, revoked once the browser has taken it. Nothing
// is uploaded: the file goes from this tab to the user's disk.

/** Offers `bytes` for download as `name` (a MIME `type`). */
export function downloadBytes(bytes, name, type = 'application/octet-stream') {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the click; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The name of a redacted copy of `name`: `.redacted` before its extension
 * (`run.jsonl` → `run.redacted.jsonl`). A `.gz` is dropped, since the
 * redacted file is plain JSON; a name without an extension gets `.json`.
 */
export function redactedName(name) {
  const base = String(name || 'trace').split('/').pop().replace(/\.gz$/i, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? `${base.slice(0, dot)}.redacted${base.slice(dot)}` : `${base}.redacted.json`;
}

/** The name of run `run` of `name` exported alone: `run.jsonl` → `run.run-3.jsonl` (a `.gz` dropped). */
export function runFileName(name, run) {
  const base = String(name || 'trace').split('/').pop().replace(/\.gz$/i, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? `${base.slice(0, dot)}.run-${run}${base.slice(dot)}` : `${base}.run-${run}.jsonl`;
}
