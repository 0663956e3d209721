// Golden SQL per dialect: the compiler's output for a fixed set of queries, reviewed and kept in
// test/semantic/golden/. A missing or stray file fails; set UPDATE_GOLDEN=1 to rewrite the files (and
// remove stray ones) after an intended change, then review the diff.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { demoModel } from './fixture.js';
import { goldenText, UPDATING_GOLDEN } from './golden-file.js';
import { GOLDEN_QUERIES } from './queries.js';

const DIR = path.join(import.meta.dirname, 'golden');
const NOW = new Date('2025-06-18T10:00:00Z');
const model = demoModel();
const ENGINES = Object.keys(DIALECTS) as Array<keyof typeof DIALECTS>;

describe.each(ENGINES)('%s', (engine) => {
  it.each(Object.entries(GOLDEN_QUERIES))('%s', (name, input) => {
    const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes: { region: 'Europe' }, now: NOW });
    const text = `${compiled.sql}\n-- params: ${JSON.stringify(compiled.params)}\n`;
    expect(text).toBe(goldenText(path.join(DIR, `${name}.${engine}.sql`), text));
  });
});

it('every golden file belongs to a query and a dialect', () => {
  const expected = new Set(ENGINES.flatMap((engine) => Object.keys(GOLDEN_QUERIES).map((name) => `${name}.${engine}.sql`)));
  const stray = readdirSync(DIR).filter((file) => !expected.has(file));
  if (UPDATING_GOLDEN) for (const file of stray) rmSync(path.join(DIR, file));
  else expect(stray, 'golden files no query produces: remove them, or run with UPDATE_GOLDEN=1').toEqual([]);
});

describe('a golden file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-golden-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('that is missing fails, naming UPDATE_GOLDEN, and is not written', () => {
    const file = path.join(dir, 'missing.sql');
    expect(() => goldenText(file, 'SELECT 1\n', false)).toThrow(/missing\.sql is missing[\s\S]*UPDATE_GOLDEN=1[\s\S]*SELECT 1/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is written from the output only when updating', () => {
    const file = path.join(dir, 'new.sql');
    expect(goldenText(file, 'SELECT 2\n', true)).toBe('SELECT 2\n');
    expect(readFileSync(file, 'utf8')).toBe('SELECT 2\n');
    expect(goldenText(file, 'SELECT 3\n', false)).toBe('SELECT 2\n'); // read back, not rewritten
  });
});
