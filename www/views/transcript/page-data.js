// The transcript's items, built in the worker (worker.js imports this) so
// that the page's thread only builds DOM: one item per event of the range
// shown (a run, or the whole trace), with the events of its calls' results
// attached, text split into blocks (inline base64 images cut out of it) and
// markdown already parsed into mdast by the bundled parser
// (www/vendor/markdown.js). Nothing here touches the DOM.

/** Texts longer than this are shown as plain text: parsing them would cost more than it shows. */
export const MARKDOWN_MAX = 200_000;

/** A base64 run of an image type the page can show inline, by its magic bytes. */
const BASE64_IMAGE = /(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)[A-Za-z0-9+/]{200,}={0,2}/g;
const BASE64_MIME = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

/** Text with the base64 images inside it cut out: [{ type: 'text', text } | { type: 'image', url, inline: true }]. */
export function splitBase64Images(text) {
  if (text.length < 200) return [{ type: 'text', text }];
  const out = [];
  let at = 0;
  for (const m of text.matchAll(BASE64_IMAGE)) {
    const mime = BASE64_MIME.find(([magic]) => m[0].startsWith(magic))?.[1] ?? 'image/png';
    if (m.index > at) out.push({ type: 'text', text: text.slice(at, m.index) });
    out.push({ type: 'image', url: `data:${mime};base64,${m[0]}`, inline: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ type: 'text', text: text.slice(at) });
  return out.length ? out : [{ type: 'text', text }];
}

/** An mdast tree without its `position`s (half its size, and the page does not use them). */
function strip(node) {
  const { position, children, ...rest } = node;
  if (children) rest.children = children.map(strip);
  return rest;
}

function parseMarkdown(md, text) {
  if (!md || text.length > MARKDOWN_MAX) return null;
  try {
    return strip(
      md.fromMarkdown(text, {
        extensions: [md.gfmTable(), md.gfmStrikethrough()],
        mdastExtensions: [md.gfmTableFromMarkdown(), md.gfmStrikethroughFromMarkdown()],
      }),
    );
  } catch {
    return null;
  }
}

/**
 * The event's content as blocks: text (with `md` when it is prose to render
 * as markdown), reasoning, image, other; JSON content as { type: 'json' }.
 */
function blocks(view, md) {
  const prose = view.kind === 'message';
  const textBlocks = (type, text) =>
    splitBase64Images(text).map((b) => (b.type === 'text' ? { type, text: b.text, md: prose ? parseMarkdown(md, b.text) : null } : b));
  if (view.parts) {
    return view.parts.flatMap((p) => {
      if (p.type === 'text' || p.type === 'reasoning') return textBlocks(p.type, p.text);
      if (p.type === 'image') return [{ type: 'image', url: p.url }];
      return [{ type: 'other', json: p.json }];
    });
  }
  if (view.json !== undefined) return [{ type: 'json', json: view.json }];
  if (view.text) return textBlocks('text', view.text);
  return [];
}

/** The view with its content as blocks (and without the copies of it the page does not need). */
function prepare(view, md) {
  const { parts, json, text, ...rest } = view;
  return { ...rest, blocks: blocks(view, md), textLength: text.length };
}

/**
 * Items `start`..`start+count` of the range [`from`, `to`) of `trace`: each
 * { event, results: { [callIndex]: result event }, subagents: { [callIndex]:
 * run index }, nested, runStart }. `subagents`: the runs a call started
 * (the runs' `startedBy`).
 * `nested`: a tool result shown under its call (the call is in the range
 * and points at it), so the item itself shows nothing. `runStart`: the run
 * this event begins, when it begins one ({ index, id, name, eventCount }).
 */
export function transcriptPage(trace, { start, count, from, to }, runs, md) {
  const views = trace.events(start, Math.max(0, Math.min(count, to - start)));
  const byIndex = new Map(views.map((v) => [v.index, v]));
  const missing = new Set();
  for (const v of views) {
    for (const c of v.toolCalls ?? []) if (c.result !== null && c.result !== undefined && !byIndex.has(c.result)) missing.add(c.result);
    if (v.kind === 'tool-result' && v.call && !byIndex.has(v.call.event)) missing.add(v.call.event);
  }
  if (missing.size) for (const e of trace.eventsAt(Uint32Array.from(missing))) byIndex.set(e.index, e);
  const firstOfRun = new Map(runs.map((r) => [r.firstEvent, r]));
  const started = new Map(runs.filter((r) => r.startedBy).map((r) => [`${r.startedBy.event}:${r.startedBy.call}`, r.index]));
  return views.map((v) => {
    const results = {};
    const subagents = {};
    for (const c of v.toolCalls ?? []) {
      const r = c.result !== null && c.result !== undefined ? byIndex.get(c.result) : null;
      if (r) results[c.index] = prepare(r, md);
      const run = started.get(`${v.index}:${c.index}`);
      if (run !== undefined) subagents[c.index] = run;
    }
    return { event: prepare(v, md), results, subagents, nested: isNested(v, byIndex, from, to), runStart: firstOfRun.get(v.index) ?? null };
  });
}

/** A tool result whose call, in the range, shows it. */
function isNested(v, byIndex, from, to) {
  if (v.kind !== 'tool-result' || !v.call) return false;
  const { event, call } = v.call;
  if (event < from || event >= to || event === v.index) return false;
  const caller = byIndex.get(event);
  return caller?.toolCalls?.find((c) => c.index === call)?.result === v.index;
}

/** Where event `index` is shown: its own item, or its call's when it is a nested result. */
export function transcriptLocate(trace, { index, from, to }) {
  const [v] = trace.events(index, 1);
  if (!v) return null;
  if (v.kind === 'tool-result' && v.call) {
    const [caller] = trace.events(v.call.event, 1);
    const byIndex = new Map(caller ? [[caller.index, caller]] : []);
    if (isNested(v, byIndex, from, to)) return { item: v.call.event, nested: true };
  }
  return { item: index, nested: false };
}
