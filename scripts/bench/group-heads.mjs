// How long the page takes to group a picked folder of 10,000 small files
// (www/viewer/sources.js `groupSources` with the worker's `groupHeadsWanted`
// and `groupFiles`), in Chromium, on files on disk:
//   - "paths": 2,500 Claude Code sessions with 3 sub-agents each under
//     `<sessionId>/subagents/` — no file's head is wanted;
//   - "heads": 5,000 sessions with an older `agent-<id>.jsonl` beside each —
//     every agent file's first 8 KB is read (the worst case: half the folder).
// Each is timed 5 times (the median is printed), with and without the heads.
//
//   node scripts/bench/group-heads.mjs      (after scripts/build.sh)

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openViewer, artifacts } from '../../tests/browser/helpers.mjs';

const N = 10_000;
const uuid = (i) => `${String(i).padStart(8, '0')}-2222-4333-8444-555555555555`;
const record = (sessionId, sidechain) =>
  `${JSON.stringify({ parentUuid: null, isSidechain: sidechain, sessionId, agentId: sidechain ? 'a' : undefined, type: 'user', message: { role: 'user', content: 'go' }, uuid: 'u' })}\n`;

function folder(name, files) {
  const dir = join(artifacts, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const cases = {
  paths: Array.from({ length: N / 4 }, (_, i) => [
    [`${uuid(i)}.jsonl`, record(uuid(i), false)],
    ...[1, 2, 3].map((k) => [`${uuid(i)}/subagents/agent-${k}.jsonl`, record(uuid(i), true)]),
  ]).flat(),
  heads: Array.from({ length: N / 2 }, (_, i) => [
    [`${uuid(i)}.jsonl`, record(uuid(i), false)],
    [`agent-${i}.jsonl`, record(uuid(i), true)],
  ]).flat(),
};

const env = await launch();
try {
  for (const [name, files] of Object.entries(cases)) {
    const dir = folder(`group-${name}`, files);
    const { page, context } = await openViewer(env);
    await page.evaluate(() => {
      const input = Object.assign(document.createElement('input'), { type: 'file', id: 'bench-input', webkitdirectory: true, hidden: true });
      document.body.append(input);
    });
    await page.setInputFiles('#bench-input', dir);
    const result = await page.evaluate(async () => {
      const { groupSources } = await import('/viewer/sources.js');
      const worker = window.__viewer.state.worker;
      const sources = [...document.querySelector('#bench-input').files].map((file) => ({ name: file.name, path: file.webkitRelativePath, file }));
      const group = (paths, heads) => worker.call('groupFiles', { paths, heads });
      const wanted = (paths) => worker.call('groupHeadsWanted', { paths });
      const time = async (f) => {
        const ms = [];
        let out;
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          out = await f();
          ms.push(performance.now() - t);
        }
        return { ms: ms.sort((a, b) => a - b)[2], traces: out.length };
      };
      const headsWanted = (await wanted(sources.map((s) => s.path))).length;
      return {
        files: sources.length,
        headsWanted,
        withHeads: await time(() => groupSources(sources, group, wanted)),
        pathsOnly: await time(() => groupSources(sources, group)),
      };
    });
    console.log(`${name}: ${JSON.stringify(result)}`);
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await env.close();
}
