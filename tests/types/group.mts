// File grouping types, used as a user would: heads are optional.
import { groupFiles, groupHeadsWanted, type FileGroup } from 'agent-trace-viewer';

const paths = ['p/11111111-2222-4333-8444-555555555555.jsonl', 'p/agent-a1.jsonl'];
const byPath: FileGroup[] = groupFiles(paths);
const wanted: number[] = groupHeadsWanted(paths);
const heads = paths.map((_, i) => (wanted.includes(i) ? new Uint8Array(8192) : null));
const byHeads: FileGroup[] = groupFiles(paths, heads);
const fromBuffers: FileGroup[] = groupFiles(paths, [undefined, new ArrayBuffer(8)]);

// @ts-expect-error: heads are bytes, not text
groupFiles(paths, ['{"sessionId":"x"}']);

void [byPath, byHeads, fromBuffers];
