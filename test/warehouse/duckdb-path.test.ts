// Where a DuckDB path leads inside a directory, on a real file system: links followed the way the
// kernel does, and every way out answered the same, whatever lies outside.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalisedPath, pathSyntaxProblem, resolveConfined } from '../../src/core/warehouse/duckdb-path.js';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'duckdb-path-'));
  root = path.join(base, 'ws');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'sub', 'a.duckdb'), 'a');
  writeFileSync(path.join(base, 'outside.duckdb'), 'o');
  symlinkSync('sub/a.duckdb', path.join(root, 'rel-inside'));
  symlinkSync(path.join(root, 'sub', 'a.duckdb'), path.join(root, 'abs-inside'));
  symlinkSync('../sub/a.duckdb', path.join(root, 'sub', 'up-and-back'));
  symlinkSync('sub', path.join(root, 'dir-link'));
  symlinkSync('../outside.duckdb', path.join(root, 'rel-out'));
  symlinkSync('../missing.duckdb', path.join(root, 'rel-out-missing'));
  symlinkSync(path.join(base, 'outside.duckdb'), path.join(root, 'abs-out'));
  symlinkSync(path.join(base, 'missing.duckdb'), path.join(root, 'abs-out-missing'));
  symlinkSync('nowhere/../../outside.duckdb', path.join(root, 'climb-through-missing'));
  symlinkSync('loop-b', path.join(root, 'loop-a'));
  symlinkSync('loop-a', path.join(root, 'loop-b'));
  symlinkSync('gone.duckdb', path.join(root, 'dangling-inside'));
  // The root itself behind a link: its real path is the boundary.
  symlinkSync(root, path.join(base, 'ws-link'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveConfined', () => {
  it('finds files inside, through links that stay inside', () => {
    const a = path.join(root, 'sub', 'a.duckdb');
    for (const given of ['sub/a.duckdb', 'rel-inside', 'abs-inside', 'sub/up-and-back', 'dir-link/a.duckdb']) {
      expect(resolveConfined(root, given), given).toEqual({ kind: 'file', file: a });
    }
    expect(resolveConfined(path.join(base, 'ws-link'), 'sub/a.duckdb')).toEqual({ kind: 'file', file: a });
  });

  it('answers outside for every way out, whether the target exists or not', () => {
    for (const given of ['rel-out', 'rel-out-missing', 'abs-out', 'abs-out-missing', 'climb-through-missing', '../outside.duckdb', 'sub/../../outside.duckdb']) {
      expect(resolveConfined(root, given), given).toEqual({ kind: 'outside' });
    }
  });

  it('tells missing files, directories and link loops apart inside', () => {
    expect(resolveConfined(root, 'nothing.duckdb')).toEqual({ kind: 'missing' });
    expect(resolveConfined(root, 'dangling-inside')).toEqual({ kind: 'missing' });
    expect(resolveConfined(root, 'sub/a.duckdb/deeper')).toEqual({ kind: 'missing' });
    expect(resolveConfined(root, 'sub')).toEqual({ kind: 'not-a-file' });
    expect(resolveConfined(root, 'loop-a')).toEqual({ kind: 'too-many-links' });
    expect(resolveConfined(path.join(base, 'no-such-root'), 'a.duckdb')).toEqual({ kind: 'missing' });
  });
});

describe('path syntax', () => {
  it('refuses absolute paths, .. and control characters; tidies the rest', () => {
    expect(pathSyntaxProblem('/etc/passwd')).toBe('absolute');
    expect(pathSyntaxProblem('a/../b')).toBe('parent');
    expect(pathSyntaxProblem('..')).toBe('parent');
    expect(pathSyntaxProblem('a\u0000b')).toBe('control-character');
    expect(pathSyntaxProblem('./')).toBe('empty');
    expect(pathSyntaxProblem('..a/b..')).toBeUndefined();
    expect(normalisedPath('./a//./b.duckdb')).toBe('a/b.duckdb');
  });
});
