#!/usr/bin/env node
// Real Gemini CLI session files and their goldens, from Gemini CLI's own code.
//
// Usage (from anywhere; Node 20.19+ and npm):
//
//     node scripts/oracle/gemini-cli/generate.mjs
//
//     ATV_ORACLE_DIR=/path   where the pinned package is installed
//                            (default: a fresh temporary folder)
//
// The script installs the version pinned in package.json beside it
// (@google/gemini-cli-core 0.61.0) with npm, then:
//
// 1. drives the package's `ChatRecordingService` (the recorder Gemini CLI
//    writes `~/.gemini/tmp/<project>/chats/session-*.jsonl` with) through
//    conversations — tool calls that succeed and fail, thoughts, token
//    counts, info/warning/error messages, a rewind, a history checkpoint, a
//    sub-agent — and writes the files it produces to tests/fixtures/gemini-cli/
//    (the clock and `randomUUID` are made deterministic, so a rerun writes the
//    same bytes); the older single-JSON form is the recorder's in-memory
//    `ConversationRecord` written whole, as versions before the JSONL form did;
// 2. for every file of tests/fixtures/gemini-cli/ (the generated ones and the
//    hand-written ones), loads it with the package's `loadConversationRecord`
//    and counts its tokens with `UiTelemetryService.hydrate` (what `/stats`
//    shows for a resumed session), and writes tests/golden/gemini-cli/goldens.json.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const pkgName = '@google/gemini-cli-core';
const version = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).dependencies[pkgName];

const prefix = process.env.ATV_ORACLE_DIR || mkdtempSync(join(tmpdir(), 'atv-gemini-oracle-'));
const root = join(prefix, 'node_modules', pkgName);
const installed = (() => {
  try {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
})();
if (installed !== version) {
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, `${pkgName}@${version}`], { stdio: 'inherit' });
}

// A deterministic clock (one second per reading) and deterministic UUIDs,
// installed before the package is loaded.
const RealDate = Date;
const t0 = RealDate.parse('2026-03-01T10:00:00.000Z');
let tick = 0;
class FakeDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(t0 + 1000 * tick++);
    else super(...args);
  }
  static now() {
    return t0 + 1000 * tick;
  }
}
globalThis.Date = FakeDate;
let uuids = 0;
crypto.randomUUID = () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`;
syncBuiltinESMExports();

const load = (p) => import(pathToFileURL(join(root, 'dist/src', p)).href);
const { ChatRecordingService, loadConversationRecord } = await load('services/chatRecordingService.js');
const { UiTelemetryService } = await load('telemetry/uiTelemetry.js');

const fixtures = join(repo, 'tests/fixtures/gemini-cli');
const goldens = join(repo, 'tests/golden/gemini-cli');
mkdirSync(fixtures, { recursive: true });
mkdirSync(goldens, { recursive: true });

const TOOLS = {
  read_file: { displayName: 'ReadFile', description: 'Reads a file from the local filesystem.', isOutputMarkdown: true },
  run_shell_command: { displayName: 'Shell', description: 'Runs a shell command.', isOutputMarkdown: false },
  write_file: { displayName: 'WriteFile', description: 'Writes a file.', isOutputMarkdown: true },
};

/** A recorder for session `id` writing under `temp` (a sub-agent's under its parent's folder). */
async function recorder(temp, id, kind, parentSessionId) {
  const context = {
    promptId: id,
    parentSessionId,
    config: {
      getProjectRoot: () => '/home/dev/project',
      storage: { getProjectTempDir: () => temp },
      getWorkspaceContext: () => ({ getDirectories: () => ['/home/dev/project'] }),
    },
    toolRegistry: { getTool: (name) => TOOLS[name] },
  };
  const r = new ChatRecordingService(context);
  await r.initialize(undefined, kind);
  return r;
}

const usage = (prompt, candidates, cached, thoughts, tool) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: candidates,
  cachedContentTokenCount: cached,
  thoughtsTokenCount: thoughts,
  toolUsePromptTokenCount: tool,
  totalTokenCount: prompt + candidates + thoughts + tool,
});

const fnResponse = (id, name, output) => ({ functionResponse: { id, name, response: { output } } });

/** One model turn as geminiChat records it: thoughts, tokens, then the text. */
function modelTurn(r, model, { thoughts = [], tokens, text }) {
  for (const t of thoughts) r.recordThought(t);
  if (tokens) r.recordMessageTokens(tokens);
  return r.recordMessage({ model, type: 'gemini', content: text });
}

/** Completed tool calls as geminiChat.recordCompletedToolCalls maps them. */
function toolCalls(r, model, calls) {
  r.recordToolCalls(
    model,
    calls.map((c) => ({
      id: c.id,
      name: c.name,
      args: c.args,
      result: c.result ?? null,
      status: c.status,
      timestamp: new Date().toISOString(),
      resultDisplay: c.display,
      description: c.description,
      agentId: c.agentId,
    })),
  );
}

const written = [];
async function session(name, build) {
  const temp = mkdtempSync(join(tmpdir(), 'atv-gemini-session-'));
  const out = await build(temp);
  for (const [from, to] of out) {
    copyFileSync(from, join(fixtures, to));
    written.push(to);
  }
  rmSync(temp, { recursive: true, force: true });
  console.log(`${name}: ${out.map(([, to]) => to).join(', ')}`);
}

const PRO = 'gemini-2.5-pro';
const FLASH = 'gemini-2.5-flash';
const PNG = 'iVBORw0KGoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

// A session with every message type, tool calls that succeed and fail,
// thoughts, tokens, a summary and directories; its in-memory record is
// also written whole as the older single-JSON form.
await session('full', async (temp) => {
  const r = await recorder(temp, 'a1b2c3d4-0000-4000-8000-00000000f001', undefined);
  r.recordMessage({ type: 'user', content: [{ text: 'Why does `npm test` fail? Look at src/sum.js.' }], displayContent: [{ text: 'Why does npm test fail?' }] });
  const m1 = modelTurn(r, PRO, {
    thoughts: [
      { subject: 'Reading the test output', description: 'I should look at the failing file first.' },
      { subject: 'Planning', description: 'Read src/sum.js, then run the tests.' },
    ],
    tokens: usage(1200, 40, 0, 85, 0),
    text: "I'll read the file and run the tests.",
  });
  toolCalls(r, PRO, [
    { id: 'read_file-1', name: 'read_file', args: { absolute_path: '/home/dev/project/src/sum.js' }, status: 'success', result: [fnResponse('read_file-1', 'read_file', 'export const sum = (a, b) => a - b;\n')], display: 'Read src/sum.js', description: 'src/sum.js' },
    { id: 'run_shell_command-2', name: 'run_shell_command', args: { command: 'npm test', description: 'Run the tests' }, status: 'error', result: [fnResponse('run_shell_command-2', 'run_shell_command', 'Error: Command exited with code 1: expected 3, got -1')], display: 'Command exited with code 1', description: 'npm test' },
  ]);
  r.recordMessage({ type: 'user', content: [fnResponse('read_file-1', 'read_file', 'export const sum = (a, b) => a - b;\n'), fnResponse('run_shell_command-2', 'run_shell_command', 'Error: Command exited with code 1: expected 3, got -1')] });
  modelTurn(r, PRO, {
    thoughts: [{ subject: 'Found it', description: 'The function subtracts instead of adding.' }],
    tokens: usage(1650, 60, 1024, 120, 12),
    text: '`sum` subtracts: it should be `a + b`. Shall I fix it?',
  });
  r.recordMessage({ type: 'user', content: 'Yes, fix it. Here is the screenshot of the failure.' });
  r.recordMessage({ type: 'info', content: [{ text: 'Image attached:' }, { inlineData: { mimeType: 'image/png', data: PNG } }] });
  r.recordMessageTokens(usage(2100, 30, 1536, 0, 0));
  toolCalls(r, FLASH, [
    { id: 'write_file-3', name: 'write_file', args: { file_path: '/home/dev/project/src/sum.js', content: 'export const sum = (a, b) => a + b;\n' }, status: 'cancelled', result: [fnResponse('write_file-3', 'write_file', 'The user cancelled the operation.')], display: 'Cancelled', description: 'src/sum.js' },
  ]);
  r.recordMessage({ type: 'warning', content: 'The write was cancelled by the user.' });
  r.recordMessage({ type: 'error', content: [{ text: '[API Error: 429 Resource exhausted. Please retry later.]' }] });
  r.saveSummary('Fix the sum function that subtracts');
  r.recordDirectories(['/home/dev/project', '/home/dev/shared']);
  const file = r.getConversationFilePath();
  const legacy = join(temp, 'legacy.json');
  writeFileSync(legacy, JSON.stringify(r.getConversation(), null, 2));
  void m1;
  return [
    [file, file.split('/').pop()],
    [legacy, 'session-2026-02-01T09-00-a1b2c3d4.json'],
  ];
});

// A rewind: the second exchange is cut and a new one follows.
await session('rewind', async (temp) => {
  const r = await recorder(temp, 'b2c3d4e5-0000-4000-8000-00000000f002', undefined);
  r.recordMessage({ type: 'user', content: [{ text: 'List the files.' }] });
  modelTurn(r, FLASH, { tokens: usage(300, 20, 0, 0, 0), text: 'src/, test/, package.json' });
  const cut = r.recordMessage({ type: 'user', content: [{ text: 'Delete test/.' }] });
  modelTurn(r, FLASH, { thoughts: [{ subject: 'Deleting', description: 'That removes the tests.' }], tokens: usage(340, 25, 256, 10, 0), text: 'Deleting test/ now.' });
  r.rewindTo(cut);
  r.recordMessage({ type: 'user', content: [{ text: 'Count the files instead.' }] });
  modelTurn(r, FLASH, { tokens: usage(350, 8, 256, 0, 0), text: 'There are 3 entries.' });
  const file = r.getConversationFilePath();
  return [[file, file.split('/').pop()]];
});

// A history checkpoint (`$set.messages`, written when the history is
// compressed or masked) and a sub-agent whose tool call names its agent.
await session('checkpoint and sub-agent', async (temp) => {
  const parentId = 'c3d4e5f6-0000-4000-8000-00000000f003';
  const r = await recorder(temp, parentId, 'main');
  const u1 = r.recordMessage({ type: 'user', content: [{ text: 'Investigate the flaky test with a helper.' }] });
  const g1 = modelTurn(r, PRO, { tokens: usage(900, 30, 0, 40, 0), text: 'Starting a sub-agent to investigate.' });
  toolCalls(r, PRO, [
    { id: 'investigator-1', name: 'codebase_investigator', args: { objective: 'Find why test/flaky.test.js fails' }, status: 'success', result: [fnResponse('investigator-1', 'codebase_investigator', 'The test depends on wall-clock time.')], display: 'Done', agentId: 'd4e5f6a7-0000-4000-8000-00000000f004' },
  ]);
  const sub = await recorder(temp, 'd4e5f6a7-0000-4000-8000-00000000f004', 'subagent', parentId);
  sub.recordMessage({ type: 'user', content: [{ text: 'Find why test/flaky.test.js fails' }] });
  modelTurn(sub, FLASH, { tokens: usage(500, 50, 0, 20, 0), text: 'It compares Date.now() across an await.' });
  // The history as the client holds it after masking the long tool output.
  r.updateMessagesFromHistory([
    { id: u1, content: { role: 'user', parts: [{ text: 'Investigate the flaky test with a helper.' }] } },
    { id: g1, content: { role: 'model', parts: [{ text: 'Starting a sub-agent to investigate.' }] } },
    { id: 'summary-1', content: { role: 'user', parts: [{ text: '<state_snapshot>The test depends on wall-clock time.</state_snapshot>' }] } },
  ]);
  modelTurn(r, PRO, { tokens: usage(400, 25, 0, 0, 0), text: 'The flaky test depends on wall-clock time; use fake timers.' });
  const file = r.getConversationFilePath();
  const subFile = sub.getConversationFilePath();
  return [
    [file, file.split('/').pop()],
    [subFile, subFile.split('/').pop()],
  ];
});

// Goldens: what Gemini CLI's loader and token hydration make of every fixture.
globalThis.Date = RealDate;
const files = {};
const names = readdirSync(fixtures).filter((n) => statSync(join(fixtures, n)).isFile()).sort();
for (const name of names) {
  const record = await loadConversationRecord(join(fixtures, name));
  if (!record) {
    files[name] = { loads: false };
    continue;
  }
  const ui = new UiTelemetryService();
  ui.hydrate(record);
  const metrics = ui.getMetrics();
  files[name] = {
    loads: true,
    sessionId: record.sessionId,
    projectHash: record.projectHash,
    summary: record.summary ?? null,
    kind: record.kind ?? null,
    directories: record.directories ?? null,
    messageCount: record.messages.length,
    userMessageCount: record.userMessageCount,
    messages: record.messages.map((m) => ({
      id: m.id,
      type: m.type,
      model: m.model ?? null,
      thoughts: (m.thoughts ?? []).length,
      tokens: m.tokens ?? null,
      toolCalls: (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, status: c.status })),
    })),
    tokensByModel: Object.fromEntries(Object.entries(metrics.models).map(([k, v]) => [k, v.tokens])),
    tools: { totalCalls: metrics.tools.totalCalls, totalSuccess: metrics.tools.totalSuccess, totalFail: metrics.tools.totalFail },
  };
}
const golden = { tool: `${pkgName}@${version}`, loader: 'loadConversationRecord + UiTelemetryService.hydrate', files };
writeFileSync(join(goldens, 'goldens.json'), JSON.stringify(golden, null, 2) + '\n');
console.log(`wrote ${written.length} session files and tests/golden/gemini-cli/goldens.json (${names.length} files)`);
