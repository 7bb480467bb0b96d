// Reading an archive lazily from a File (a large Inspect `.eval`; the
// worker's `openLazily`, `loadRun` and `searchBodies`): the core's
// LazyArchive says which byte ranges to read, these read them with
// `Blob.slice`, so that the page never holds the whole file.

/** Bytes read so far from each lazily opened File (`info.lazy.bytesRead`). */
export const bytesRead = new WeakMap();

/** Bytes `start`..`end` of a File. */
export async function readSlice(file, start, end) {
  const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer());
  bytesRead.set(file, (bytesRead.get(file) ?? 0) + bytes.byteLength);
  return bytes;
}

/** Member `entry` of a lazily opened archive, as read from the File: `use(bytes)`'s result (read again further when the core asks). */
async function withMember(file, archive, entry, use) {
  const [start, end] = archive.readRange(entry);
  let bytes = await readSlice(file, start, end);
  try {
    return use(bytes);
  } catch (e) {
    if (typeof e.readTo !== 'number') throw e;
    bytes = await readSlice(file, start, e.readTo);
    return use(bytes);
  }
}

/** Member `entry`'s raw bytes as `runsTrace` takes them ({ entry, bytes }). */
export async function readBody(file, archive, entry) {
  const [start, end] = archive.readRange(entry);
  let bytes = await readSlice(file, start, end);
  // A local header longer than assumed: read on to where the data ends.
  const dataEnd = archive.dataEnd(entry, bytes);
  if (dataEnd - start > bytes.length) bytes = await readSlice(file, start, dataEnd);
  return { entry, bytes };
}

/**
 * Opens a zip File lazily (see worker.js LAZY_ARCHIVE_BYTES): reads its
 * tail, the members that are no run's body, and the bodies no summary
 * lists; returns { archive, trace, eager } or null when no format reads the
 * archive lazily. The core's `archiveTailNeeded` and `openArchiveLazily`
 * are passed in (the worker owns the wasm module).
 */
export async function openLazily(file, format, { archiveTailNeeded, openArchiveLazily }) {
  const size = file.size;
  let tail = await readSlice(file, Math.max(0, size - 65_579), size);
  const need = archiveTailNeeded(tail, size);
  if (need > tail.length) tail = await readSlice(file, Math.max(0, size - need), size);
  let archive;
  try {
    archive = openArchiveLazily(tail, size, format ? { format } : {});
  } catch (e) {
    if (e.code === 'not-lazy') return null;
    throw e;
  }
  try {
    for (const i of archive.headsWanted()) await withMember(file, archive, i, (bytes) => archive.addHead(i, bytes));
    let trace = archive.runsTrace([]);
    const unlisted = archive.bodiesUnlisted(trace);
    const eager = [];
    if (unlisted.length) {
      for (const i of unlisted) eager.push(await readBody(file, archive, i));
      trace.free();
      trace = archive.runsTrace(eager);
    }
    return { archive, trace, eager };
  } catch (e) {
    archive.free();
    throw e;
  }
}

