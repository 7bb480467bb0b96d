// A small static file server for www/ (and the browser tests): the right
// MIME types for ES modules and .wasm, the viewer's Content-Security-Policy
// as a header, localhost only. No dependencies.
//
//   node scripts/serve.mjs [root=www]      PORT=8000 by default; 0 picks a free port

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  // https: so that a `?url=` the user chose to load can be fetched (see docs/security.md);
  // the page fetches nothing else after it loads.
  "connect-src 'self' https:",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves `root` on 127.0.0.1; resolves to { url, close }. With `prefix`
 * (e.g. '/sub/path/') the site lives under that path only, as on a static
 * host that serves it from a sub-directory.
 */
export function startServer(root, port = 0, { prefix = '/' } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    const headers = {
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    };
    try {
      const full = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      if (prefix !== '/' && full === prefix.replace(/\/$/, '')) {
        res.writeHead(301, { ...headers, Location: prefix });
        res.end();
        return;
      }
      if (!full.startsWith(prefix)) throw Object.assign(new Error('outside prefix'), { code: 'ENOENT' });
      const path = '/' + full.slice(prefix.length);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 404 : 500, { ...headers, 'Content-Type': 'text/plain' });
      res.end(e.code === 'ENOENT' ? 'not found' : 'error');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      ok({ url: `http://127.0.0.1:${p}${prefix}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? 'www';
  const port = Number(process.env.PORT ?? 8000);
  startServer(root, port).then(
    ({ url }) => console.log(`agent-trace-viewer: serving ${root}/ at ${url}  (Ctrl-C to stop)`),
    (e) => {
      console.error(`cannot listen on port ${port}: ${e.message} (set PORT=... to pick another)`);
      process.exit(1);
    },
  );
}
