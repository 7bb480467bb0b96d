// Shared set-up for the Chromium tests: the static server (with the CSP
// header), Debian's chromium through playwright-core, a page with a request
// log, and helpers to read the virtualised list.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const corpus = process.env.ATV_CORPUS ?? join(root, '..', 'shared', 'corpus');
export const artifacts = join(root, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Chromium and a static server of `site`; `viewer` is where in it the viewer lives (a bundle keeps it in viewer/). */
export async function launch({ site = join(root, 'www'), viewer = site, prefix = '/', extraArgs = [] } = {}) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: run scripts/setup.sh`);
  assert.ok(existsSync(join(viewer, 'pkg', 'agent_trace_viewer_bg.wasm')), `${viewer}/pkg missing: run scripts/build.sh`);
  mkdirSync(artifacts, { recursive: true });
  const server = await startServer(site, 0, { prefix });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
  return { server, browser, close: async () => { await browser.close(); await server.close(); } };
}

/** A fresh page with a request log, a dialog trap and page errors collected. */
export async function openViewer(env, { path = '', colorScheme = 'light', viewport = { width: 1280, height: 860 }, initScript } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const requests = [];
  const dialogs = [];
  const errors = [];
  if (initScript) await page.addInitScript(initScript);
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const response = await page.goto(env.server.url + path);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, context, requests, dialogs, errors, response };
}

/** Event indices of the rows in the DOM (all of them for a short list). */
export async function rowIndices(page) {
  return page.$$eval('#event-list .vrow .r-index', (els) => els.map((e) => Number(e.textContent.slice(1))));
}

/** Waits until the filter's match count reads `text` (e.g. "4 of 12 events"). */
export async function waitForCount(page, text) {
  await page.waitForFunction((t) => document.querySelector('#match-count')?.textContent === t && !document.querySelector('#event-list .vrow.loading'), text);
}

/** Types a query and waits for the list to show `count` matches. */
export async function query(page, q, total) {
  await page.fill('#query', q);
  await page.press('#query', 'Enter');
  await page.waitForFunction(
    ([q, total]) => window.__viewer.state.query === q.trim() && !document.querySelector('#event-list .vrow.loading') && document.querySelector('#match-count').textContent.endsWith(`${total} events`),
    [q, total],
  );
}

/**
 * Loads a bundled sample and shows its events (the Transcript is the
 * default view of a conversation; `events: false` leaves it there).
 */
export async function loadSample(page, file = 'openai-weather.json', { events = true } = {}) {
  await page.selectOption('#sample-select', file);
  // The trace shown before keeps its rows until this one is shown: wait for this one.
  await page.waitForFunction((f) => document.querySelector('#status').textContent.startsWith(`Loaded ${f}`), file);
  if (events) await showEvents(page);
}

/**
 * Once the trace is shown (the status says Loaded), switches to the events
 * view if another is shown (a conversation opens on its Transcript) and
 * waits for its rows.
 */
export async function showEvents(page, prefix = '') {
  await page.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('Loaded'));
  if ((await page.getAttribute(`#${prefix}tab-events`, 'aria-selected')) !== 'true') await page.click(`#${prefix}tab-events`);
  await page.waitForFunction(
    (p) => !document.getElementById(`${p}view-events`).hidden && (window.__viewer.state.count === 0 || document.querySelector(`#${p}event-list .vrow:not(.loading)`)),
    prefix,
  );
}
