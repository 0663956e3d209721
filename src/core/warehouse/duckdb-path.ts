// Where a DuckDB path given relative to a directory really leads, symbolic links followed, without ever
// looking outside that directory. Several tenants' files share one disk: a path, or a link, that leads
// out must be refused the same way whether its target exists or not, so the walk stops at the first
// step outside instead of asking the file system about it.
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** As the kernel allows (ELOOP): a chain of links longer than this is a loop, or an attempt to hide one. */
const MAX_LINKS = 40;

export type ConfinedPath =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'not-a-file' }
  | { readonly kind: 'outside' }
  | { readonly kind: 'too-many-links' };

/** Why a path is refused before the file system is asked anything. */
export type PathSyntaxProblem = 'empty' | 'absolute' | 'parent' | 'control-character';

/** Rules on the text alone: relative, no `..`, no control characters. */
export function pathSyntaxProblem(given: string): PathSyntaxProblem | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(given)) return 'control-character';
  if (path.isAbsolute(given)) return 'absolute';
  const parts = given.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return 'parent';
  if (parts.length === 0) return 'empty';
  return undefined;
}

/** The tidy spelling of a path that passed pathSyntaxProblem: `./a//b` → `a/b`. */
export function normalisedPath(given: string): string {
  return given
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/**
 * Follows `relative` from `root` one component at a time, the way the kernel would, and answers where
 * it leads. `root` itself may sit behind links (its real path is the boundary). A missing `root` means
 * a missing file.
 */
export function resolveConfined(root: string, relative: string): ConfinedPath {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
  const inside = (candidate: string) => candidate === realRoot || candidate.startsWith(realRoot + path.sep);
  const pending = components(relative);
  let current = realRoot;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '..') {
      if (current === realRoot) return { kind: 'outside' };
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      if (!isMissing(error)) throw error;
      // Nothing there: what follows cannot be a link either. Only a `..` in a link's target can
      // still climb, and the text decides where it lands.
      return inside(path.join(next, ...pending)) ? { kind: 'missing' } : { kind: 'outside' };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return { kind: 'too-many-links' };
    const target = readlinkSync(next);
    if (path.isAbsolute(target)) {
      // An absolute target is judged by its text: inside the real root or not. Nothing outside is visited.
      const resolved = path.resolve(target);
      if (!inside(resolved)) return { kind: 'outside' };
      current = realRoot;
      pending.unshift(...components(path.relative(realRoot, resolved)));
    } else {
      pending.unshift(...components(target));
    }
  }
  if (current === realRoot) return { kind: 'not-a-file' };
  try {
    return statSync(current).isFile() ? { kind: 'file', file: current } : { kind: 'not-a-file' };
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
}

function components(text: string): string[] {
  return text.split('/').filter((part) => part !== '' && part !== '.');
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
