// The compile memo must never answer with a query compiled for other circumstances: every answer it
// gives equals what compileQuery gives for the same model, query and options, across data-key
// attributes, time zones, dialects, and instants around day and quarter-hour boundaries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileQuery, type CompileOptions, type CompiledQuery } from '../../src/core/semantic/compile.js';
import { compileMemoSize, compileQueryMemoized, relativeTimeBucket } from '../../src/core/semantic/compile-memo.js';
import { semanticQuerySchema, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { demoModel } from './fixture.js';
import { REGIONS, TIMEZONES, WIDE_QUERY } from './random-queries.js';

/** A compiled query as data: its runnable text rendered (a function compares by identity). */
const withRunnableText = (compiled: CompiledQuery) => ({ ...compiled, runnableSql: compiled.runnableSql() });

// Instants on and beside boundaries: midnight UTC, a quarter hour, Kolkata's midnight (18:30 UTC),
// the turn of a month and of a year.
const INSTANTS = [
  '2025-06-18T00:00:00.000Z',
  '2025-06-17T23:59:59.999Z',
  '2025-06-18T00:14:59.999Z',
  '2025-06-18T00:15:00.000Z',
  '2025-06-17T18:29:59.999Z',
  '2025-06-17T18:30:00.000Z',
  '2025-06-30T23:59:59.999Z',
  '2025-07-01T00:00:00.000Z',
  '2025-12-31T23:59:59.999Z',
  '2026-01-01T00:00:00.000Z',
].map((text) => new Date(text));

const fresh = (model: ReturnType<typeof demoModel>, query: SemanticQueryInput, options: CompileOptions) => compileQuery(model, semanticQuerySchema.parse(query), options);

describe('compileQueryMemoized', () => {
  it('answers exactly as compileQuery does, whatever was compiled before it', () => {
    const model = demoModel();
    fc.assert(
      fc.property(
        fc.array(WIDE_QUERY, { minLength: 1, maxLength: 3 }),
        fc.array(
          fc.record({
            now: fc.constantFrom(...INSTANTS),
            engine: fc.constantFrom('postgres', 'duckdb', 'mysql', 'snowflake' as const),
            workspaceZone: fc.constantFrom(undefined, ...TIMEZONES),
            region: fc.constantFrom(...REGIONS),
          }),
          { minLength: 2, maxLength: 8 },
        ),
        (queries, variants) => {
          // The same few queries under each set of circumstances, twice round, so that the memo holds
          // each query compiled for other circumstances when it is asked again.
          for (const { now, engine, workspaceZone, region } of [...variants, ...variants.slice().reverse()]) {
            for (const query of queries) {
              const { region: _drawn, timezone, ...rest } = query;
              const input: SemanticQueryInput = { node: 'orders', ...rest, ...(timezone === 'UTC' ? {} : { timezone }) };
              const options: CompileOptions = { dialect: DIALECTS[engine], attributes: { region }, now, ...(workspaceZone ? { timezone: workspaceZone } : {}) };
              let expected: unknown;
              try {
                expected = withRunnableText(fresh(model, input, options));
              } catch (error) {
                expect(() => compileQueryMemoized(model, semanticQuerySchema.parse(input), options)).toThrow((error as Error).message);
                continue;
              }
              expect(withRunnableText(compileQueryMemoized(model, semanticQuerySchema.parse(input), options))).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps one answer for a repeated query and hands out a frozen one', () => {
    const model = demoModel();
    const query = semanticQuerySchema.parse({ node: 'orders', dimensions: ['status'], measures: ['revenue'] });
    const options: CompileOptions = { dialect: DIALECTS.postgres, attributes: { region: 'Europe' }, now: INSTANTS[0]! };
    const first = compileQueryMemoized(model, query, options);
    expect(compileQueryMemoized(model, semanticQuerySchema.parse({ node: 'orders', dimensions: ['status'], measures: ['revenue'] }), options)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.params)).toBe(true);
  });

  it('compiles afresh for other data-key values, another model, or another quarter hour of a relative period', () => {
    const model = demoModel();
    const query = semanticQuerySchema.parse({ node: 'orders', measures: ['revenue'], filters: [{ field: 'created_at', operator: 'inThePast', value: '1 day' }] });
    const at = (now: Date, region: string): CompileOptions => ({ dialect: DIALECTS.postgres, attributes: { region }, now });
    const europe = compileQueryMemoized(model, query, at(INSTANTS[0]!, 'Europe'));
    expect(compileQueryMemoized(model, query, at(INSTANTS[0]!, 'North America')).params).toContain('North America');
    expect(compileQueryMemoized(model, query, at(INSTANTS[0]!, 'Europe'))).toBe(europe);
    // A new deployment is a new model object: nothing carries over.
    expect(compileQueryMemoized(demoModel(), query, at(INSTANTS[0]!, 'Europe'))).not.toBe(europe);
    // Just before midnight the day before is another day.
    const before = compileQueryMemoized(model, query, at(INSTANTS[1]!, 'Europe'));
    expect(before.params).not.toEqual(europe.params);
    expect(before.params).toEqual(fresh(model, query, at(INSTANTS[1]!, 'Europe')).params);
  });

  it('buckets now only for filters relative to it', () => {
    expect(relativeTimeBucket('[{"field":"created_at","operator":"after","value":"2024-01-01"}]', 1e12)).toBeNull();
    expect(relativeTimeBucket('[{"or":[{"field":"created_at","operator":"inTheCurrent","value":"week"}]}]', 1e12)).toBe(Math.floor(1e12 / 900_000));
    // Their negations move with now as much.
    expect(relativeTimeBucket('[{"field":"created_at","operator":"notInThePast","value":"7 days"}]', 1e12)).toBe(Math.floor(1e12 / 900_000));
    expect(relativeTimeBucket('[{"not":{"field":"created_at","operator":"notInTheCurrent","value":"week"}}]', 1e12)).toBe(Math.floor(1e12 / 900_000));
  });

  it('stays within its bound in bytes, however many distinct queries it is fed', () => {
    const model = demoModel();
    const options: CompileOptions = { dialect: DIALECTS.postgres, attributes: { region: '*' }, now: INSTANTS[0]! };
    // About 6,000 queries of ~2 KB of key and ~2 KB of SQL each: several times the bound.
    const channels = Array.from({ length: 150 }, (_, i) => `channel-${i}`);
    for (let i = 0; i < 6_000; i++) {
      compileQueryMemoized(model, semanticQuerySchema.parse({ node: 'orders', measures: ['revenue'], filters: [{ field: 'channel', operator: 'in', value: [...channels, `only-${i}`] }] }), options);
    }
    const { entries, bytes } = compileMemoSize();
    expect(bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(entries).toBeLessThan(6_000);
  });
});
