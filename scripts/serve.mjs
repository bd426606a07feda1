// A small static file server for the built site, bound to loopback only.
//   node scripts/serve.mjs [ROOT]      (PORT defaults to 8080)
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export function serveStatic(rootDir, { headers = {} } = {}) {
  const root = resolve(rootDir);
  return createServer((request, response) => {
    let path;
    try {
      path = normalize(join(root, decodeURIComponent(new URL(request.url, 'http://localhost').pathname)));
    } catch {
      response.writeHead(400).end('bad request');
      return;
    }
    if (path !== root && !path.startsWith(root + sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (statSync(path).isDirectory()) path = join(path, 'index.html');
      const size = statSync(path).size;
      response.writeHead(200, {
        'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
        'Content-Length': size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        ...headers,
      });
      createReadStream(path).pipe(response);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
    }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rootDir = process.argv[2] ?? 'dist/site';
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: PORT must be a port number (0-65535), not "${process.env.PORT}".`);
    process.exit(1);
  }
  const server = serveStatic(rootDir);
  server.on('error', (error) => {
    console.error(`serve: cannot listen on 127.0.0.1:${port} (${error.code}); set PORT to a free port.`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    console.log(`traincalc is running at http://127.0.0.1:${port}/  (Ctrl+C to stop)`);
  });
}
