#!/usr/bin/env node
// Golden token totals for the `codex` format from ccusage's Codex report.
//
// Usage (from anywhere; Node 20.19+ and npm):
//
//     node scripts/oracle/codex/goldens.mjs
//
//     ATV_ORACLE_DIR=/path   where the pinned package is installed
//                            (default: a fresh temporary folder)
//
// The script installs the version pinned in package.json beside it
// (@ccusage/codex 18.0.11) with npm, then for every fixture of
// tests/fixtures/codex/ and every file of ../shared/corpus/codex/ puts that
// one file under a temporary CODEX_HOME/sessions/ and runs
//
//     ccusage-codex session --json --offline
//
// (per ccusage-codex session --help: --json prints the report as JSON,
// --offline uses its bundled pricing instead of fetching LiteLLM's). It
// writes tests/golden/codex/ccusage.json deterministically: per file, the
// report's session rows (token counts, models, cost) as ccusage printed them,
// and its totals; a file ccusage counts no tokens in has no rows.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const version = pkg.dependencies['@ccusage/codex'];

const prefix = process.env.ATV_ORACLE_DIR || mkdtempSync(join(tmpdir(), 'atv-codex-oracle-'));
const bin = join(prefix, 'node_modules/@ccusage/codex/dist/index.js');
const installed = (() => {
  try {
    return JSON.parse(readFileSync(join(prefix, 'node_modules/@ccusage/codex/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
})();
if (installed !== version) {
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, `@ccusage/codex@${version}`], { stdio: 'inherit' });
}

const fixtures = join(repo, 'tests/fixtures/codex');
const corpus = process.env.ATV_CORPUS ? join(process.env.ATV_CORPUS, 'codex') : join(repo, '../shared/corpus/codex');
const inputs = [];
for (const [key, dir] of [['fixtures', fixtures], ['corpus', corpus]]) {
  let names = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl') && statSync(join(dir, n)).isFile()).sort();
  } catch {
    if (key === 'fixtures') throw new Error(`no fixtures at ${dir}`);
  }
  for (const n of names) inputs.push({ key: `${key}/${n}`, path: join(dir, n), name: n });
}

const files = {};
for (const input of inputs) {
  const home = mkdtempSync(join(tmpdir(), 'atv-codex-home-'));
  mkdirSync(join(home, 'sessions'));
  cpSync(input.path, join(home, 'sessions', input.name));
  const out = execFileSync('node', [bin, 'session', '--json', '--offline'], {
    env: { ...process.env, CODEX_HOME: home, NO_COLOR: '1', TZ: 'UTC' },
    encoding: 'utf8',
  });
  rmSync(home, { recursive: true, force: true });
  const report = JSON.parse(out);
  files[input.key] = report;
}

const golden = { tool: `@ccusage/codex@${version}`, command: 'session --json --offline', files };
mkdirSync(join(repo, 'tests/golden/codex'), { recursive: true });
writeFileSync(join(repo, 'tests/golden/codex/ccusage.json'), JSON.stringify(golden, null, 2) + '\n');
console.log(`wrote tests/golden/codex/ccusage.json (${inputs.length} files)`);
