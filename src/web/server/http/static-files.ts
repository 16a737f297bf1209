/**
 * The page's files, read once at start from the bundle (dist/bundle/web, scripts/bundle-web.mjs):
 * only the names of PAGE_FILES and the script chunks there, each held in memory under its URL path. A request is answered by
 * looking its path up in that table, never by joining it to a folder: no path from a URL can
 * reach a file outside the bundle (`/../package.json`, `/%2e%2e/...` are just unknown paths: 404).
 */
import fs from 'node:fs';
import path from 'node:path';

/** The page's files and their types: the only files the server ever serves. */
const PAGE_FILES: ReadonlyArray<{ file: string; type: string }> = [
  { file: 'index.html', type: 'text/html; charset=utf-8' },
  { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { file: 'app.css', type: 'text/css; charset=utf-8' },
  { file: 'sw.js', type: 'text/javascript; charset=utf-8' },
  { file: 'manifest.webmanifest', type: 'application/manifest+json' },
  { file: 'icon.svg', type: 'image/svg+xml' },
  { file: 'icon-192.png', type: 'image/png' },
  { file: 'icon-512.png', type: 'image/png' },
];

export interface StaticFile {
  body: Buffer;
  type: string;
  /** The page and the service worker are looked at afresh each time (a new version is picked up at once); the rest may be cached a while. */
  cache: string;
}

/** Shown at / when the bundle has no page (a clone that did not run npm run build). */
const NO_PAGE = '<!doctype html><meta charset="utf-8"><title>agent-board</title><p>The page is not built: run <code>npm run build</code>, then restart <code>agent-board web</code>.</p>\n';

/** The script chunks the page imports when it needs them (xterm.js): named by their content's hash. */
const CHUNK = /^chunk-[A-Z0-9]+\.js$/;

/** The bundle's chunks, listed once at start (a name that is not a chunk's is never served). */
function chunkFiles(dir: string): Array<{ file: string; type: string }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => CHUNK.test(n)).map((file) => ({ file, type: 'text/javascript; charset=utf-8' }));
}

/** URL path -> file, from `dir` (missing files are left out; a missing index.html gets a page that says so). */
export function loadPageFiles(dir: string): ReadonlyMap<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const { file, type } of [...PAGE_FILES, ...chunkFiles(dir)]) {
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(dir, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const fresh = file.endsWith('.html') || file === 'sw.js' || file.endsWith('.webmanifest');
    files.set(`/${file}`, { body, type, cache: fresh ? 'no-store' : 'max-age=300' });
  }
  const index = files.get('/index.html') ?? { body: Buffer.from(NO_PAGE), type: 'text/html; charset=utf-8', cache: 'no-store' };
  files.set('/', index);
  files.set('/index.html', index);
  return files;
}

/** The request's path without its query: matched as it is, never decoded or resolved. */
export const requestPath = (url: string | undefined): string => {
  const u = url ?? '/';
  const q = u.search(/[?#]/);
  return q === -1 ? u : u.slice(0, q);
};
