// Finds and reads the built console (web/dist): its index.html and the hashed files under assets/.
// Files are read once and kept: they never change while the process runs (a rebuild means a restart).
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root holds web/dist, whether this file runs from src/ (tsx) or dist/ (compiled). */
export function defaultConsoleDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join(dir, 'web', 'dist');
}

export interface ConsoleFiles {
  index: string;
  assets: Map<string, Buffer>;
}

/** The built console, or undefined when it has not been built. */
export async function readConsoleFiles(dir: string): Promise<ConsoleFiles | undefined> {
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const assets = new Map<string, Buffer>();
  const assetDir = path.join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of await readdir(assetDir)) assets.set(name, await readFile(path.join(assetDir, name)));
  }
  return { index: await readFile(indexFile, 'utf8'), assets };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeOf(name: string): string {
  return TYPES[path.extname(name)] ?? 'application/octet-stream';
}

export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><main><h1>The console is not built</h1>
<p>The API works (see <a href="/docs">/docs</a>); the browser console's files are missing.</p>
<p>Build them with <code>npm run build:console</code> (it runs on <code>npm ci</code> and <code>npm start</code> when the build tools are installed), then restart the server.</p>
</main></body></html>
`;

/** An unknown page when the console is not built: what the built console's not-found view says. */
export const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>
<body><main><h1>Page not found</h1>
<p>No page at this address. Go to <a href="/">the console's home</a>.</p>
</main></body></html>
`;
