// The span chart in Chromium: the OpenTelemetry sample's spans drawn as the
// core lays them out (trace.spanBars()); a click selects the bar under the
// pointer and shows its facts, and its events go to the list as a `span:`
// query; the wheel zooms about the pointer, 0 resets. Then 100,000 spans
// (a generated OTLP JSON file): zoom, pan and select with no main-thread
// task over 100 ms.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { launch, openViewer, loadSample, root, artifacts } from './helpers.mjs';

const { parseTrace } = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'agent_trace_viewer.js'));
const SPANS = 100_000;
const BIG = join(artifacts, 'spans-100k.json');

/** OTLP JSON: traces of one agent span with `perTrace - 1` chat and tool children, every 50th failing. */
function otlp(total, perTrace = 10) {
  const spans = [];
  const t0 = 1767225600000000000n;
  for (let i = 0; i < total; i++) {
    const trace = Math.floor(i / perTrace);
    const root = i % perTrace === 0;
    const start = t0 + BigInt(trace) * 1_000_000_000n + BigInt(i % perTrace) * 50_000_000n;
    spans.push({
      traceId: trace.toString(16).padStart(32, '0'),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      ...(root ? {} : { parentSpanId: (trace * perTrace + 1).toString(16).padStart(16, '0') }),
      name: root ? 'invoke_agent planner' : i % 2 ? 'chat gpt-4o' : 'execute_tool search',
      kind: 1,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + (root ? 900_000_000n : 40_000_000n)),
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: root ? 'invoke_agent' : i % 2 ? 'chat' : 'execute_tool' } }],
      status: i % 50 === 7 ? { code: 2, message: 'boom' } : {},
    });
  }
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gen' }, spans }] }] });
}

let env;
before(async () => {
  env = await launch();
  writeFileSync(BIG, otlp(SPANS));
});
after(async () => {
  await env?.close();
});

test('span chart: the sample drawn as the core lays it out; select, zoom, reset, events to the list', async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'otel-genai-agent.json');
  const t = parseTrace(readFileSync(join(root, 'www', 'samples', 'otel-genai-agent.json')));
  const expected = t.spanBars();
  t.free();
  await page.click('#tab-span-chart');
  await page.waitForSelector('#span-canvas');
  const drawn = await page.$eval('#span-canvas', (c) => ({ n: c.chart.bars.start.length, names: c.chart.bars.name }));
  assert.equal(drawn.n, expected.start.length);
  assert.deepEqual(drawn.names, expected.name);
  assert.ok(drawn.n > 3);
  // Click the middle of the first depth-1 bar: its facts show.
  const target = expected.depth.findIndex((d) => d === 1);
  const at = await page.$eval('#span-canvas', (c, i) => {
    const { view, lane, bars } = c.chart;
    return { x: (bars.start[i] + bars.duration[i] / 2 - view.t0) / view.msPerPx, y: 24 + (lane[i] - view.top) * 18 + 8 };
  }, target);
  await page.click('#span-canvas', { position: at });
  await page.waitForSelector('#span-details [data-fact="span"]');
  assert.equal(await page.textContent('#span-details [data-fact="span"]'), expected.nodePaths[expected.node[target]]);
  await page.screenshot({ path: join(artifacts, 'view-span-chart.png') });
  // Wheel zooms in about the pointer; 0 resets.
  const before = await page.$eval('#span-canvas', (c) => c.chart.view.msPerPx);
  const rect = await page.$eval('#span-canvas', (c) => c.getBoundingClientRect().toJSON());
  await page.mouse.move(rect.x + at.x, rect.y + at.y);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((b) => document.querySelector('#span-canvas').chart.view.msPerPx < b, before);
  await page.focus('#span-canvas');
  await page.keyboard.press('0');
  await page.waitForFunction((b) => Math.abs(document.querySelector('#span-canvas').chart.view.msPerPx - b) < 1e-9, before);
  // Its events, in the list.
  await page.click('#span-events');
  await page.waitForFunction(() => window.__viewer.state.view === 'events' && window.__viewer.state.query.startsWith('span:'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('span chart: a Claude Code session, which has no spans, is drawn from its tool calls; a call opens its event', async () => {
  const { page, context, errors } = await openViewer(env);
  await loadSample(page, 'claude-code-session.jsonl');
  const t = parseTrace(readFileSync(join(root, 'www', 'samples', 'claude-code-session.jsonl')));
  const expected = t.spanBars();
  t.free();
  assert.ok(expected.kind.length > 3 && expected.kind.every((k) => k === 'call'));
  await page.click('#tab-span-chart');
  await page.waitForSelector('#span-canvas');
  assert.match(await page.textContent('#span-chart-title'), new RegExp(`^${expected.kind.length} tool calls on a time axis`));
  // The longest call: its facts name the tool; its event opens in the list.
  const target = expected.duration.indexOf(Math.max(...expected.duration));
  const at = await page.$eval('#span-canvas', (c, i) => {
    const { view, lane, bars } = c.chart;
    return { x: (bars.start[i] + bars.duration[i] / 2 - view.t0) / view.msPerPx, y: 24 + (lane[i] - view.top) * 18 + 8 };
  }, target);
  await page.click('#span-canvas', { position: at });
  await page.waitForSelector('#span-details [data-fact="tool call"]');
  assert.equal(await page.textContent('#span-details [data-fact="tool call"]'), expected.name[target]);
  assert.equal(await page.$('#span-events'), null, 'a call has no span: query');
  await page.screenshot({ path: join(artifacts, 'view-span-chart-calls.png') });
  await page.click('#span-open');
  await page.waitForFunction((i) => window.__viewer.state.view === 'events' && window.__viewer.state.selected === i, expected.event[target]);
  assert.deepEqual(errors, []);
  await context.close();
});

function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

test('span chart: 100,000 spans zoom, pan and select without a long main-thread task', async () => {
  const { page, context, errors } = await openViewer(env, { initScript: watchLongTasks });
  await page.setInputFiles('#file-input', BIG);
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Loaded spans-100k.json'), null, { timeout: 180_000 });
  await page.click('#tab-span-chart');
  await page.waitForSelector('#span-canvas');
  assert.equal(await page.$eval('#span-canvas', (c) => c.chart.bars.start.length), SPANS);
  const t0 = await page.evaluate(() => performance.now());
  const box = await page.$eval('#span-canvas', (c) => ({ w: c.clientWidth, h: c.clientHeight, ...c.getBoundingClientRect().toJSON() }));
  const zoomed = await page.$eval('#span-canvas', (c) => c.chart.view.msPerPx);
  for (let k = 0; k < 6; k++) {
    await page.mouse.move(box.x + box.w / 2, box.y + 100);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(50);
  }
  assert.ok((await page.$eval('#span-canvas', (c) => c.chart.view.msPerPx)) < zoomed, 'the wheel zoomed in');
  await page.focus('#span-canvas');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', '-', '-']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(30);
  }
  await page.click('#span-canvas', { position: { x: box.w / 2, y: 24 + 9 } });
  await page.waitForTimeout(200);
  const tasks = (await page.evaluate(() => window.__longTasks)).filter((t) => t.start >= t0);
  assert.ok(tasks.every((t) => t.duration <= 100), `main-thread tasks over 100 ms: ${JSON.stringify(tasks)}`);
  await page.screenshot({ path: join(artifacts, 'view-span-chart-100k.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
