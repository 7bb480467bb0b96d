// What each part of the main .wasm costs, gzipped: for every module of the
// crate (each format's folder under src/import/ on its own) and every
// dependency crate, the gzipped size of the code and data with that part's
// function bodies left out, subtracted from the whole. Parts compress
// together, so these marginal costs do not add up to the whole exactly; they
// say what leaving one part out (loading it on demand) would save.
//
//   node scripts/bench/wasm-parts.mjs [module.wasm] [--markdown]
//
// The default module is cargo's output before wasm-bindgen and wasm-opt
// (target/wasm32-unknown-unknown/wasm-release/agent_trace_viewer.wasm, built
// by scripts/build.sh): it still has the name section that says which
// function is whose.

import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const file = args.find((a) => !a.startsWith('--')) ?? join(root, 'target/wasm32-unknown-unknown/wasm-release/agent_trace_viewer.wasm');

/** The function bodies, their names and the data section of a module. */
function sections(b) {
  let p = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  const skip = () => {
    const n = leb(); // read first: `p += leb()` would add to the old `p`
    p += n;
  };
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let data = Buffer.alloc(0);
  while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const end = p + size;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        skip();
        skip();
        const kind = b[p++];
        if (kind === 0) {
          leb();
          imported++;
        } else if (kind === 1) {
          p++;
          if (b[p++] & 1) leb();
          leb();
        } else if (kind === 2) {
          if (b[p++] & 1) leb();
          leb();
        } else p += 2;
      }
    } else if (id === 10) {
      for (let n = leb(); n > 0; n--) {
        const s = leb();
        bodies.push(b.subarray(p, p + s));
        p += s;
      }
    } else if (id === 11) {
      data = b.subarray(p, end);
    } else if (id === 0) {
      const l = leb();
      const name = b.subarray(p, p + l).toString();
      p += l;
      while (name === 'name' && p < end) {
        const sub = b[p++];
        const ss = leb();
        const se = p + ss;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const index = leb();
            const nl = leb();
            names.set(index - imported, b.subarray(p, p + nl).toString());
            p += nl;
          }
        }
        p = se;
      }
    }
    p = end;
  }
  return { bodies, names, data };
}

/**
 * The path a legacy-mangled Rust symbol names: `_ZN18agent_trace_viewer6import4otel…`
 * gives [agent_trace_viewer, import, otel, …]; a trait method
 * `_ZN93_$LT$agent_trace_viewer..import..otel..Otel$u20$as$u20$…` the
 * implementing type's path.
 */
function symbolPath(symbol) {
  if (symbol.startsWith('_R')) {
    // v0 mangling (the precompiled std): the first crate named, `C<hash>_<len><name>`.
    const crate = /C(?:s[0-9A-Za-z]*_)?\d+([a-z_][a-z_0-9]*)/.exec(symbol);
    return crate ? [crate[1].slice(0, Number(/C(?:s[0-9A-Za-z]*_)?(\d+)/.exec(symbol)[1]))] : [];
  }
  // wasm-bindgen's exported shims: `parseFiles_<hash>`.
  if (/^[A-Za-z]+_[0-9a-f]{16}$/.test(symbol)) return ['wasm-bindgen exports'];
  const segs = [];
  let q = symbol.startsWith('_ZN') ? 3 : 0;
  for (;;) {
    const m = /^(\d+)/.exec(symbol.slice(q));
    if (!m) break;
    q += m[1].length;
    segs.push(symbol.slice(q, q + Number(m[1])));
    q += Number(m[1]);
  }
  const first = segs[0] ?? '';
  const impl = /^_?\$LT\$(?:\$RF\$|\*const\$u20\$|\*mut\$u20\$|\[)*([a-z_][a-z_0-9]*(?:\.\.[A-Za-z_][A-Za-z_0-9]*)*)/.exec(first);
  return impl ? impl[1].split('..') : segs;
}

/** Which part a function belongs to: `import::<format>`, a top module of the crate, or a crate. */
function partOf(symbol) {
  const path = symbolPath(symbol);
  if (path[0] !== 'agent_trace_viewer') return path[0] && /^[a-z_][a-z_0-9 -]*$/.test(path[0]) ? path[0] : 'other';
  const [, top, sub] = path;
  if (top === 'import' && sub && /^[a-z_0-9]+$/.test(sub)) return `import::${sub}`;
  return top && /^[a-z_0-9]+$/.test(top) ? top : 'agent_trace_viewer (root)';
}

const { bodies, names, data } = sections(readFileSync(file));
const gz = (parts) => gzipSync(Buffer.concat(parts), { level: 9 }).length;
const whole = gz([...bodies, data]);
const byPart = new Map();
bodies.forEach((body, i) => {
  const part = partOf(names.get(i) ?? '');
  if (!byPart.has(part)) byPart.set(part, new Set());
  byPart.get(part).add(i);
});
const rows = [...byPart].map(([part, members]) => ({
  part,
  functions: members.size,
  raw: [...members].reduce((a, i) => a + bodies[i].length, 0),
  gzipped: whole - gz([...bodies.filter((_, i) => !members.has(i)), data]),
}));
rows.sort((a, b) => b.gzipped - a.gzipped);
// A format is a folder under src/import/ (docs/adding-a-format.md).
const folders = new Set(readdirSync(join(root, 'src/import'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `import::${d.name}`));
const formats = rows.filter((r) => folders.has(r.part));
const kb = (n) => (n / 1000).toFixed(1);
if (markdown) {
  console.log(`Code and data of \`${file.replace(`${root}/`, '')}\`: ${kb(whole)} KB gzipped (this estimate, zlib level 9, leaves out the module's other sections).\n`);
  console.log('| part | functions | code | gzipped, marginal |');
  console.log('|---|---|---|---|');
  const small = rows.filter((r) => r.gzipped < 1000);
  for (const r of rows.filter((x) => x.gzipped >= 1000)) console.log(`| ${r.part} | ${r.functions} | ${kb(r.raw)} KB | ${kb(r.gzipped)} KB |`);
  console.log(`| ${small.length} parts under 1 KB each | ${small.reduce((a, r) => a + r.functions, 0)} | ${kb(small.reduce((a, r) => a + r.raw, 0))} KB | ${kb(small.reduce((a, r) => a + r.gzipped, 0))} KB |`);
  console.log(`\nThe ${formats.length} formats' own folders together: ${kb(formats.reduce((a, r) => a + r.gzipped, 0))} KB gzipped (sum of marginal costs).`);
} else {
  console.log(`${file}: code and data ${kb(whole)} KB gzipped`);
  for (const r of rows) console.log(`${kb(r.gzipped).padStart(8)} KB  ${kb(r.raw).padStart(8)} KB raw  ${String(r.functions).padStart(5)} fns  ${r.part}`);
  console.log(`formats' own folders: ${kb(formats.reduce((a, r) => a + r.gzipped, 0))} KB gzipped together (sum of marginal costs)`);
}
