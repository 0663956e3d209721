// Builds the console once before any test file runs (when missing or older than its sources), so the
// files that serve it never build it at the same time.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-console.mjs'), '--strict'], { stdio: 'inherit' });
}
