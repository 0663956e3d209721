// Golden SQL per dialect: the compiler's output for a fixed set of queries, reviewed and kept in
// test/semantic/golden/. Set UPDATE_GOLDEN=1 to rewrite the files after an intended change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { demoModel } from './fixture.js';
import { GOLDEN_QUERIES } from './queries.js';

const DIR = path.join(import.meta.dirname, 'golden');
const NOW = new Date('2025-06-18T10:00:00Z');
const model = demoModel();

describe.each(Object.keys(DIALECTS) as Array<keyof typeof DIALECTS>)('%s', (engine) => {
  it.each(Object.entries(GOLDEN_QUERIES))('%s', (name, input) => {
    const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes: { region: 'Europe' }, now: NOW });
    const text = `${compiled.sql}\n-- params: ${JSON.stringify(compiled.params)}\n`;
    const file = path.join(DIR, `${name}.${engine}.sql`);
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, text);
    }
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});
