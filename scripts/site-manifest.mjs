// Writes files.json in a built site (www/ or dist/): every file of the
// viewer, relative to the site, samples/ left out (a bundle brings its own
// traces) — what the page's "Bundle…" button packs, as `agent-trace-viewer
// bundle` copies the folder. Run by scripts/build.sh after the site is
// complete (pkg/ and vendor/ in place).

import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const site = process.argv[2];
if (!site) {
  console.error('usage: node scripts/site-manifest.mjs SITE_DIR');
  process.exit(2);
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return relative(site, path) === 'samples' ? [] : walk(path);
    return d.isFile() ? [relative(site, path).split('\\').join('/')] : [];
  });
}

const files = walk(site).filter((f) => f !== 'files.json').sort();
writeFileSync(join(site, 'files.json'), `${JSON.stringify({ files }, null, 1)}\n`);
console.log(`${site}/files.json: ${files.length} files`);
