// Copies the embeddable viewer (www/viewer.js, www/element.js and every
// module, worker and stylesheet they reach) into pkg/viewer/ for the npm
// package, rewriting the worker's imports of the wasm package (`./pkg/…`,
// the static site's copy) to the package's own pkg/web and pkg/tokenizer-web.
// Fails when a `pkg/` import is left unrewritten or any relative import
// would not resolve inside the package.
//
//   node scripts/package-viewer.mjs [www] [out=pkg/viewer]

import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const www = resolve(process.argv[2] ?? join(root, 'www'));
const out = resolve(process.argv[3] ?? join(root, 'pkg', 'viewer'));
const pkg = dirname(out);

/** Where the static site's `pkg/<file>` lives in the npm package. */
const WASM_MODULES = {
  'agent_trace_viewer.js': join(pkg, 'web', 'agent_trace_viewer.js'),
  'atv_tokenizer.js': join(pkg, 'tokenizer-web', 'atv_tokenizer.js'),
};
const ENTRIES = ['viewer.js', 'element.js'];
/** Hand-written declarations next to the modules they describe. */
const DECLARATIONS = ['viewer.d.ts', 'element.d.ts'];

// import … from '…', export … from '…', import '…', import('…'), new URL('…', import.meta.url)
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new\s+URL\s*\(\s*)(['"])([^'"]+)\2/g;

function fail(message) {
  console.error(`package-viewer: ${message}`);
  process.exit(1);
}

/** The specifier rewritten for the package, or null when it is not a `pkg/` import. */
function rewritePkg(spec, fromFile) {
  const target = resolve(dirname(join(www, fromFile)), spec);
  const rel = relative(join(www, 'pkg'), target);
  if (rel.startsWith('..') || rel === '') return null;
  const dest = WASM_MODULES[rel];
  if (!dest) fail(`${fromFile} imports ${spec}, which the package does not ship`);
  let r = relative(dirname(join(out, fromFile)), dest).split('\\').join('/');
  if (!r.startsWith('.')) r = `./${r}`;
  return r;
}

const seen = new Set();
const queue = [...ENTRIES];
const files = new Map();
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const src = join(www, file);
  if (!existsSync(src)) fail(`${file} is imported but missing from ${www}`);
  if (!file.endsWith('.js')) {
    files.set(file, null);
    continue;
  }
  const text = readFileSync(src, 'utf8').replace(SPECIFIER, (m, head, q, spec) => {
    if (!spec.startsWith('.')) return m;
    const rewritten = rewritePkg(spec, file);
    if (rewritten) return `${head}${q}${rewritten}${q}`;
    queue.push(relative(www, resolve(dirname(src), spec)).split('\\').join('/'));
    return m;
  });
  files.set(file, text);
}

rmSync(out, { recursive: true, force: true });
for (const [file, text] of files) {
  const dest = join(out, file);
  mkdirSync(dirname(dest), { recursive: true });
  if (text === null) copyFileSync(join(www, file), dest);
  else writeFileSync(dest, text);
}
for (const file of DECLARATIONS) {
  const text = readFileSync(join(www, file), 'utf8').replace(SPECIFIER, (m, head, q, spec) => {
    const rewritten = spec.startsWith('.') ? rewritePkg(spec, file) : null;
    return rewritten ? `${head}${q}${rewritten}${q}` : m;
  });
  writeFileSync(join(out, file), text);
}

// Check what was written: no import of the site's pkg/ left, every relative import resolves.
for (const file of [...files.keys(), ...DECLARATIONS]) {
  if (!/\.(js|ts)$/.test(file)) continue;
  const text = readFileSync(join(out, file), 'utf8');
  for (const [, , , spec] of text.matchAll(SPECIFIER)) {
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(join(out, file)), spec);
    if (/(^|\/)pkg\//.test(spec) || target.startsWith(join(out, 'pkg'))) fail(`unrewritten pkg/ import in ${file}: ${spec}`);
    if (!existsSync(target)) fail(`${file}: ${spec} does not resolve (${relative(root, target)})`);
  }
  // Also a path to the site's pkg/ built at run time, which the patterns above cannot follow.
  const loose = /['"`](?:\.{1,2}\/)+pkg\//.exec(text);
  if (loose) fail(`unrewritten pkg/ path in ${file}: ${text.slice(loose.index, loose.index + 60)}`);
}
console.log(`package-viewer: ${files.size} files into ${relative(root, out)} (${[...files.keys()].join(' ')})`);
