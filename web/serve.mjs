#!/usr/bin/env node
// `npm run demo:web`: serves the demo page on 127.0.0.1 (never on other interfaces). The page is
// web/ at `/`, the built package dist/ at `/dist/`. `--port N` (default 8080; 0 picks a free one).
// /csp.html is sent with a strict Content-Security-Policy to show the web-resemble/browser-external entry.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.map': 'application/json',
  '.svg': 'image/svg+xml', '.ts': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};
// No inline scripts, no eval; 'wasm-unsafe-eval' is the one permission WebAssembly compilation needs.
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'";

/** Maps a URL path to a file under web/ or dist/; undefined for anything outside them. */
function fileFor(pathname) {
  let path;
  try { path = decodeURIComponent(pathname); } catch { return undefined; }
  if (path.includes('\0')) return undefined;
  const [base, rest] = path.startsWith('/dist/') ? [join(root, 'dist'), path.slice(6)] : [here, path.slice(1) || 'index.html'];
  const file = normalize(join(base, rest));
  return file.startsWith(base + sep) ? file : undefined;
}

/** Takes a port (0: any free one); resolves to the server's URL and a close function. */
export async function startServer(port = 8080) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    let file = fileFor(url.pathname);
    try {
      if (file && (await stat(file)).isDirectory()) file = join(file, 'index.html');
      if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
      if (url.pathname === '/csp.html') headers['content-security-policy'] = STRICT_CSP;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      const missing = e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'EISDIR';
      res.writeHead(missing ? 404 : 500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(missing ? `not found: ${url.pathname}${url.pathname.startsWith('/dist/') ? ' (run `npm run build` first)' : ''}\n` : 'server error\n');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const { port: bound } = server.address();
  return { url: `http://127.0.0.1:${bound}/`, close: () => new Promise((ok) => server.close(() => ok())) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: expected --port 0..65535, got ${process.argv[i + 1] ?? process.env.PORT}`);
    process.exit(2);
  }
  try {
    await stat(join(root, 'dist', 'browser.js'));
  } catch {
    console.error('serve: dist/browser.js is missing; run `npm run build` first');
  }
  const { url } = await startServer(port);
  console.log(`resemble demo: ${url}  (strict-CSP variant: ${url}csp.html)  Ctrl-C stops`);
}
