// Bundles the markdown parser (scripts/vendor/markdown-entry.mjs: the npm
// packages pinned in package.json) into one ES module, www/vendor/markdown.js,
// which the worker imports on demand: www/ is served as plain ES modules, so
// bare npm imports must be resolved at build time. The `worker` export
// condition is asked for first so that decode-named-character-reference
// takes its table version, not the DOM one (which decodes entities through
// an element's innerHTML and needs a `document` the worker does not have).
//
//   node scripts/bundle-markdown.mjs [outDir=www/vendor]

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(root, 'www', 'vendor'));

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  resolve: { conditions: ['worker', 'import', 'module', 'default'], mainFields: ['module', 'main'] },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: { entry: join(root, 'scripts', 'vendor', 'markdown-entry.mjs'), formats: ['es'], fileName: () => 'markdown.js' },
  },
});
