import type { Plugin } from 'vite';

/**
 * jsonAsset is a Vite plugin that writes JSON files of the repository's labs into the build, and
 * serves the same files in development. files() lists each file's path (relative to index.html)
 * with a function that reads what it holds: listing is cheap, and a file is read only when it is
 * written or asked for, afresh each time, so that an edited lab shows on reload.
 * The Studies page (studies-asset.ts) and the lab sheets (sheets-asset.ts) are served this way.
 */
export function jsonAsset(name: string, files: () => Record<string, () => unknown>): Plugin {
  return {
    name,
    generateBundle() {
      for (const [fileName, read] of Object.entries(files())) {
        this.emitFile({ type: 'asset', fileName, source: JSON.stringify(read()) });
      }
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = decodeURIComponent(new URL(request.url ?? '/', 'http://dev').pathname).replace(/^\/+/, '');
        const read = Object.hasOwn(files(), path) ? files()[path] : undefined;
        if (read === undefined) return next();
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(read()));
      });
    },
  };
}
