// Builds the browser console (web/ → web/dist) when it is missing or older than its sources. Runs on
// `npm ci`/`npm install` (prepare) and before `npm start` (prestart), so the quickstart stays two
// commands. Without the build tools (an install that omitted dev dependencies) it says so and leaves
// the server to answer a page explaining how to build; it never fails the install or the start.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const built = path.join(web, 'dist', 'index.html');
const force = process.argv.includes('--force');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

// Files of the server the console bundles too, so that the two share one list (pages, filter operators).
const shared = [
  path.join(root, 'src', 'surfaces', 'web', 'client-routes.ts'),
  path.join(root, 'src', 'core', 'semantic', 'filter-operators.ts'),
  // Shown by the console's glossary page.
  path.join(root, 'docs', 'glossary.md'),
];
if (!existsSync(path.join(web, 'index.html')) || !shared.every((file) => existsSync(file))) {
  // An install without the sources (the production dependencies of an image): nothing to build.
  console.warn('The console sources (web/, src/) are not here: the console is not built.');
  process.exit(0);
}
const sources = [newestSource(web), ...shared.map((file) => statSync(file).mtimeMs)];
if (!force && existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources)) process.exit(0);

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('The console is not built: Vite is not installed (dev dependencies omitted). The API works; run `npm install` then `npm run build:console` for the console.');
  process.exit(0);
}
const started = Date.now();
try {
  await vite.build({ configFile: path.join(web, 'vite.config.ts'), logLevel: 'warn' });
  console.log(`Console built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  console.error(`The console failed to build: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(process.argv.includes('--strict') ? 1 : 0);
}
