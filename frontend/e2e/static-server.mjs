// A plain static file server for the built site, mounted under a sub-path (/labs/) so that the
// end-to-end tests prove the build has no absolute asset paths: the backend may serve it under /.
// Usage: node e2e/static-server.mjs <port>
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../dist', import.meta.url));
const mount = '/labs/';
const port = Number(process.argv[2]);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

createServer((request, response) => {
  const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
  if (!path.startsWith(mount)) {
    response.writeHead(404).end(`Only ${mount} is served.`);
    return;
  }
  const relative = normalize(path.slice(mount.length) || 'index.html');
  const file = join(root, relative.endsWith('/') ? join(relative, 'index.html') : relative);
  if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    response.writeHead(404).end(`${path} was not found in the build.`);
    return;
  }
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
}).listen(port, '127.0.0.1');
