// The sharing API as a page uses it: a redaction's preview (report and
// masked examples) and a run of one trace compared with a run of another.
import { parseTrace, redact, type Comparison, type Redacted, type RedactExample } from 'agent-trace-viewer';
import { mountViewer } from 'agent-trace-viewer/viewer';

const r: Redacted = redact(new Uint8Array(), { literals: ['acme'] });
const first: RedactExample | undefined = r.examples[0];
const masked: string | undefined = first?.masked;
const bytes: Uint8Array = r.bytes;
void masked;
void bytes;

const left = parseTrace(new Uint8Array());
const right = parseTrace(new Uint8Array());
const c: Comparison = left.compareRunsWith(right, 0, 0);
const added: number = c.added;
void added;
// @ts-expect-error the other trace, not its index
left.compareRunsWith(1, 0, 0);

mountViewer(document.body, { controls: true, bundleManifest: 'files.json' });
