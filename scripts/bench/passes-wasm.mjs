#!/usr/bin/env node
// Times the byte-level passes of a parse (SourceMap::new, json::split, the
// whole-input UTF-8 check) one by one in wasm, in Node: the wasm counterpart
// of `cargo bench --bench passes`. Builds scripts/bench/passes-wasm (release,
// simd128 as .cargo/config.toml sets it; wasm-opt -O3 as scripts/build.sh
// does when node_modules has it) unless --no-build.
//
//   node scripts/bench/passes-wasm.mjs [--runs N] [--no-build] [--compare OTHER.wasm]... FILE...
//
// --compare: also time another build of the same exports (say, the
// atv_passes_wasm.opt.wasm of an older commit), interleaved run by run with
// this one, so that both see the same machine load.

import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const crate = join(root, 'scripts', 'bench', 'passes-wasm');
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const args = process.argv.slice(2);
let runs = 11;
let build = true;
const files = [];
const others = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--no-build') build = false;
  else if (args[i] === '--compare') others.push(args[++i]);
  else files.push(args[i]);
}
if (!files.length) {
  console.error('usage: node scripts/bench/passes-wasm.mjs [--runs N] [--no-build] FILE...');
  process.exit(2);
}
const raw = join(target, 'wasm32-unknown-unknown', 'release', 'atv_passes_wasm.wasm');
const opt = join(target, 'atv_passes_wasm.opt.wasm');
if (build) {
  const run = (cmd, argv, cwd) => {
    const r = spawnSync(cmd, argv, { cwd, stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: target } });
    if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed`);
  };
  // From the worktree root, so that its .cargo/config.toml (+simd128) applies.
  run('cargo', ['build', '--quiet', '--release', '--target', 'wasm32-unknown-unknown', '--manifest-path', join(crate, 'Cargo.toml')], root);
  const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
  if (existsSync(wasmOpt)) run(wasmOpt, ['-O3', '--enable-simd', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', raw, '-o', opt], root);
}
/** Instantiates a build of the exports. */
function load(path) {
  const module = new WebAssembly.Module(readFileSync(path));
  // The main crate's wasm-bindgen exports come along; their imports are never called here.
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) {
    (imports[i.module] ??= {})[i.name] = () => {
      throw new Error(`unexpected call to ${i.module}.${i.name}`);
    };
  }
  return { path, wasm: new WebAssembly.Instance(module, imports).exports };
}
const builds = [load(existsSync(opt) ? opt : raw), ...others.map(load)];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const PASSES = ['source_map', 'split', 'utf8'];
for (const file of files) {
  const bytes = readFileSync(file);
  const inputs = builds.map(({ wasm }) => {
    const ptr = wasm.input_buffer(bytes.length);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  });
  const times = builds.map(() => PASSES.map(() => []));
  for (let r = 0; r < runs; r++) {
    builds.forEach(({ wasm }, b) => {
      PASSES.forEach((pass, p) => {
        const t = performance.now();
        wasm[`pass_${pass}`](inputs[b], bytes.length);
        times[b][p].push(performance.now() - t);
      });
    });
  }
  builds.forEach(({ path }, b) => {
    const out = PASSES.map((pass, p) => `${pass.replace('_', '-')} ${median(times[b][p]).toFixed(2)} ms`);
    const which = builds.length > 1 ? ` [${path}]` : '';
    console.log(`${file}: ${(bytes.length / 1e6).toFixed(1)} MB (wasm)${which}: ${out.join(', ')} (medians of ${runs})`);
  });
}
