// The runnable text of a compiled query: the same SQL with each bound value written as a literal of the
// engine's own quoting, which the history keeps so that a governed run reopened in the SQL editor runs
// as shown. On every engine present: awkward values come back exactly as they went in, the text passes
// the editor's read-only guard, and every filter operator gives the same rows as the bound run.
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { semanticQuerySchema, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import { param, type Select } from '../../src/core/sql/ast.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { assertReadOnly } from '../../src/core/sql/guard/index.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { demoEngines, ENGINES, needsZone } from './demo-engines.js';
import { FILTER_CASES } from './filter-cases.js';
import { canonical, expectSameRows } from './rows.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const DEMO = { orders: 600, seed: 11, now: NOW };
const RUN = { maxRows: 100_000, timeoutMs: 30_000 };

const engines = demoEngines(DEMO, 'runnable');

/** Text values that break naive quoting: quotes, backslashes (an escape on MySQL and Snowflake), comment and placeholder look-alikes. */
const AWKWARD_TEXT = [
  "it's",
  "''",
  '\\',
  "\\'",
  "a\\'; SELECT 1; --",
  '$1',
  '?',
  '/* not a comment */',
  '-- not a comment',
  'line\nbreak\ttab',
  'Ünïcødé ✓ 𝄞',
  '%_!',
  '',
  '"double"',
  '`back`',
];

/** `SELECT <value> AS v` as the dialect renders it with the value bound, so both forms can be run. */
const selectOf = (value: unknown): Select => ({ items: [{ expr: param(value), alias: 'v' }], from: { kind: 'sql', sql: 'SELECT 1 AS one', alias: 't' } });

describe.each(ENGINES)('%s', (engine) => {
  it('writes text, numbers and booleans as literals that read back exactly', async () => {
    const { warehouse } = engines.get(engine)!;
    const dialect = DIALECTS[engine];
    for (const value of [...AWKWARD_TEXT, 0, 42, -7, 2.5, -0.125, 1e-7, 123456789012, true, false]) {
      const runnable = dialect.renderRunnable(selectOf(value));
      await assertReadOnly(engine, runnable);
      const [literal] = (await warehouse.run(runnable, [], RUN)).rows;
      // Engines answer a boolean as true or 1, a large or decimal number as a number or its text.
      if (typeof value === 'string') expect(literal!.v, runnable).toBe(value);
      else expect(Number(literal!.v), runnable).toBe(Number(value));
    }
  });

  it.for(FILTER_CASES.map((c) => [c.name, c] as const))('%s: the runnable text gives the rows the bound run gives', async ([, { filter, timezone }], ctx) => {
    needsZone(ctx, engine, timezone);
    const { warehouse, model } = engines.get(engine)!;
    const input: SemanticQueryInput = { node: 'orders', dimensions: ['channel', 'created_at.month'], measures: ['order_count', 'revenue'], filters: [filter], ...(timezone ? { timezone } : {}) };
    // A data key restricts the rows too: its value is bound like a filter's.
    const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes: { region: 'Europe' }, now: NOW });
    expect(compiled.params.length).toBeGreaterThan(0);
    expect(compiled.runnableSql()).not.toBe(compiled.sql);
    await assertReadOnly(engine, compiled.runnableSql());
    const bound: WarehouseRow[] = [...(await warehouse.run(compiled.sql, compiled.params, RUN)).rows];
    const runnable: WarehouseRow[] = [...(await warehouse.run(compiled.runnableSql(), [], RUN)).rows];
    expectSameRows(canonical(runnable), canonical(bound), `${engine} ${JSON.stringify(filter)}: ${compiled.runnableSql()}`);
  });

  it('keeps filters on awkward text literal: the same rows as bound, whatever the value holds', async () => {
    const { warehouse, model } = engines.get(engine)!;
    for (const value of AWKWARD_TEXT) {
      for (const operator of ['equals', 'contains', 'notEquals']) {
        const input: SemanticQueryInput = { node: 'orders', dimensions: ['status'], measures: ['order_count'], filters: [{ field: 'customers.name', operator, value }] };
        const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes: { region: '*' }, now: NOW });
        const bound = [...(await warehouse.run(compiled.sql, compiled.params, RUN)).rows];
        const runnable = [...(await warehouse.run(compiled.runnableSql(), [], RUN)).rows];
        expectSameRows(canonical(runnable), canonical(bound), `${engine} ${operator} ${JSON.stringify(value)}`);
      }
    }
  });
});

describe('every dialect', () => {
  it('leaves no placeholder in the runnable text, where the bound text has one', () => {
    for (const dialect of Object.values(DIALECTS)) {
      const select = selectOf("it's");
      expect(dialect.render(select).sql).toMatch(/\$1|\?/);
      expect(dialect.renderRunnable(select)).not.toMatch(/\$1|\?/);
    }
  });

  it("quotes text by the engine's own rules (Snowflake, not run here, reads a backslash as an escape)", () => {
    const text = "it's \\ ok";
    expect(DIALECTS.duckdb.literal(text)).toBe("'it''s \\ ok'");
    expect(DIALECTS.postgres.literal(text)).toBe("E'it''s \\\\ ok'");
    expect(DIALECTS.postgres.literal("it's")).toBe("'it''s'");
    expect(DIALECTS.mysql.literal(text)).toBe("'it''s \\\\ ok'");
    expect(DIALECTS.snowflake.literal(text)).toBe("'it''s \\\\ ok'");
    expect([DIALECTS.postgres.literal(-3), DIALECTS.mysql.literal(true), DIALECTS.snowflake.literal(false), DIALECTS.duckdb.literal(null)]).toEqual(['(-3)', '1', 'FALSE', 'NULL']);
  });
});
