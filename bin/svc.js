#!/usr/bin/env node
// Runs the compiled CLI when it exists (production images), the TypeScript sources otherwise.
import { existsSync } from 'node:fs';
const compiled = new URL('../dist/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
