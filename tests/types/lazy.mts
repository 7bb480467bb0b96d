// An archive opened lazily, used as a user would (docs/npm-package.md): the
// caller reads byte ranges, the core inflates and parses them.
import { archiveTailNeeded, openArchiveLazily, type ArchiveEntry, type LazyArchive, type RunHead, type RunRow, type Trace } from 'agent-trace-viewer';

declare function readRange(start: number, end: number): Uint8Array;
const size = 500_000_000;
let tail = readRange(size - 65_579, size);
const need: number = archiveTailNeeded(tail, size);
if (need > tail.length) tail = readRange(size - need, size);
const archive: LazyArchive = openArchiveLazily(tail, size, { format: 'inspect' });
const entries: ArchiveEntry[] = archive.entries();
const roles: ('body' | 'summaries' | 'head')[] = entries.map((e) => e.role);
const read = (i: number): Uint8Array => {
  const [start, end]: [number, number] = archive.readRange(i);
  return readRange(start, end);
};
for (const i of archive.headsWanted()) archive.addHead(i, read(i));
const runs: Trace = archive.runsTrace([]);
const heads: RunHead[] = runs.runHeads();
const rows: RunRow[] = runs.runRows();
const pending: boolean = rows[0]?.pending === true && typeof heads[0]?.pendingBody === 'string';
const entry: number = archive.entryNamed(heads[0]?.pendingBody ?? '');
const bytes = read(entry);
const end: number = archive.dataEnd(entry, bytes);
const opened: Trace = archive.runsTrace([{ entry, bytes }]);
const unlisted: number[] = archive.bodiesUnlisted(opened);
const alone: Trace = archive.bodyTrace(entry, bytes);

// @ts-expect-error: a body is { entry, bytes }, not bytes alone
archive.runsTrace([bytes]);

void [roles, pending, end, unlisted, alone];
archive.free();
