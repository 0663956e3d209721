// Rollups answer exactly what the source answers. A generated fact table is loaded into embedded DuckDB
// and into PostgreSQL; every rollup of the model is built from each (the daily one month by month, as
// partitions); then hundreds of random governed queries run both on the source (the governed compiler's
// SQL on the warehouse) and, when the matcher picks a rollup, on its stored table, and the two answers
// must be the same rows: sums, counts, minima and maxima equal exactly, quotients (averages, ratios,
// formulas) within a relative 1e-9, since a quotient of re-aggregated parts is rounded once in double
// precision where PostgreSQL divides in NUMERIC. Row order is compared too wherever it is determined by
// exact values (a limit keeps the same rows). PostgreSQL's rollups are also stored in a rollup schema of
// the source database itself (built there, read in its dialect), and must answer the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { semanticQuerySchema, type SemanticQuery } from '../../src/core/semantic/query.js';
import { addUnits } from '../../src/core/semantic/time.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { RunResult, Warehouse, WarehouseEngine, WarehouseRow } from '../../src/core/warehouse/types.js';
import { randomHex } from '../../src/identity/tokens.js';
import { answerFromRollup } from '../../src/rollups/answer-from-rollup.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { RollupStore } from '../../src/rollups/rollup-store.js';
import type { AnyRollupStore } from '../../src/rollups/rollup-stores.js';
import { WarehouseRollupStore } from '../../src/rollups/warehouse-rollup-store.js';
import { rollupTableName } from '../../src/core/semantic/rollup-table.js';
import { TEST_NOW } from '../helpers/clock.js';
import { hasService, POSTGRES_URL } from '../helpers/services.js';
import { dropPostgresSchema, factModel, factRows, loadDuckDbFacts, loadPostgresFacts } from './fact-table.js';
import { FLOAT_MEASURES, randomQueries } from './random-queries.js';

const ROWS = factRows(4000);
const QUERIES = randomQueries(600, 20261128);
const RUN = { maxRows: 100_000, timeoutMs: 30_000 };
const RELATIVE = 1e-9;

const postgresUp = await hasService('postgres');
const dir = mkdtempSync(path.join(tmpdir(), 'rollup-diff-'));
const schema = `rollup_diff_${randomHex(6)}`;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (postgresUp) await dropPostgresSchema(POSTGRES_URL, schema);
  if (postgresUp) await dropPostgresSchema(POSTGRES_URL, `${schema}_rollups`);
  if (postgresUp) await dropPostgresSchema(POSTGRES_URL, `${schema}_rs`);
});

interface Engine {
  readonly model: SemanticModel;
  readonly source: Warehouse;
  readonly store: AnyRollupStore;
}

function linked(table: string): SemanticModel {
  const { model, diagnostics } = compileModel([{ path: 'facts.cml', content: factModel(table) }]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return model!;
}

/** Builds every rollup of the node; the partitioned one month by month, as a refresh would. */
async function buildAll({ model, source, store }: Engine): Promise<number> {
  let rows = 0;
  for (const rollup of model.nodes.get('orders')!.rollups) {
    const common = { model, rollup, source, store, now: TEST_NOW, maxRows: RUN.maxRows, timeoutMs: RUN.timeoutMs };
    if (!rollup.partition) {
      rows += (await buildRollup(common)).rows;
      continue;
    }
    // Every month of the data and one on each side (empty, so they write nothing).
    for (let start = new Date(Date.UTC(2023, 11, 1)); start < new Date(Date.UTC(2026, 1, 1)); start = addUnits('month', start, 1)) {
      rows += (await buildRollup({ ...common, partition: { start, end: addUnits('month', start, 1) } })).rows;
    }
    // Built again, a partition replaces its rows: answers would count them twice otherwise.
    await buildRollup({ ...common, partition: { start: new Date(Date.UTC(2024, 2, 1)), end: new Date(Date.UTC(2024, 3, 1)) } });
  }
  return rows;
}

/** The first time bucket a rollup's table holds. */
async function firstBucket({ model, store }: Engine, name: string): Promise<unknown> {
  const rollup = model.nodes.get('orders')!.rollups.find((r) => r.name === name)!;
  const table = rollupTableName(model, rollup);
  const stored = store.kind === 'warehouse' ? `"${store.schema}"."${store.stored(table)}"` : `"${table}"`;
  const result = await store.query(`SELECT MIN(created_at__day) AS first FROM ${stored}`, [], 1);
  return result.rows[0]?.['first'];
}

async function onSource({ model, source }: Engine, query: SemanticQuery, attributes: Record<string, string>): Promise<RunResult> {
  const compiled = compileQuery(model, query, { dialect: DIALECTS[source.engine], attributes, now: TEST_NOW });
  return source.run(compiled.sql, compiled.params, { ...RUN, ...(compiled.timezone !== 'UTC' ? { timeZone: compiled.timezone } : {}) });
}

const close = (a: unknown, b: unknown) => {
  if (typeof a !== 'number' || typeof b !== 'number') return a === b;
  return Math.abs(a - b) <= RELATIVE * Math.max(Math.abs(a), Math.abs(b));
};

/** The rows with quotients replaced by the other side's value when within the rounding, so toEqual shows the real differences. */
function aligned(rows: readonly WarehouseRow[], reference: readonly WarehouseRow[], floats: readonly string[]): WarehouseRow[] {
  return rows.map((row, i) => {
    const other = reference[i];
    const copy = { ...row };
    for (const key of floats) if (other && close(row[key], other[key])) copy[key] = other[key]!;
    return copy;
  });
}

/** Rows in a canonical order (by every dimension), for comparing as sets. */
function canonical(rows: readonly WarehouseRow[], dimensions: readonly string[]): WarehouseRow[] {
  const key = (row: WarehouseRow) => JSON.stringify(dimensions.map((d) => row[d]));
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function differential(engine: WarehouseEngine | 'postgres rollup schema', open: () => Promise<Engine>) {
  let target: Engine;
  beforeAll(async () => {
    target = await open();
    expect(await buildAll(target)).toBeGreaterThan(0);
    // A build range keeps the rows before it out.
    expect(await firstBucket(target, 'recent_daily')).toBe('2025-01-01T00:00:00.000');
  }, 60_000);
  afterAll(async () => {
    if (target?.store.kind === 'embedded') target.store.close();
    await target?.source.close();
  });

  it(`answers ${QUERIES.length} random queries from rollups exactly as ${engine} does`, async () => {
    const byRollup = new Map<string, number>();
    for (const { query: input, attributes } of QUERIES) {
      const query = semanticQuerySchema.parse(input);
      const answer = await answerFromRollup({ model: target.model, query, sourceEngine: target.source.engine, attributes, now: TEST_NOW, store: target.store, maxRows: RUN.maxRows });
      if (!answer.answered) {
        expect(answer.reason, JSON.stringify(input)).toBe('no_rollup');
        continue;
      }
      byRollup.set(answer.rollup.name, (byRollup.get(answer.rollup.name) ?? 0) + 1);
      const source = await onSource(target, query, attributes);
      const context = `${JSON.stringify({ query: input, attributes })}\nrollup ${answer.rollup.name}: ${answer.sql}`;
      expect(answer.result.columns.map((c) => c.name), context).toEqual(source.columns.map((c) => c.name));
      expect(answer.result.truncated, context).toBe(false);
      const floats = query.measures.filter((m) => FLOAT_MEASURES.has(m));
      const dimensions = query.dimensions;
      // Order is fixed by exact values unless the first key is a quotient (near-ties may swap there).
      const ordered = query.sorts.length > 0 || dimensions.some((d) => d.startsWith('created_at.')) || !FLOAT_MEASURES.has(query.measures[0] ?? '');
      const expected = ordered ? source.rows : canonical(source.rows, dimensions);
      const actual = ordered ? answer.result.rows : canonical(answer.result.rows, dimensions);
      expect(aligned(actual, expected, floats), context).toEqual(expected);
    }
    const answered = [...byRollup.values()].reduce((a, b) => a + b, 0);
    console.info(`${engine}: ${QUERIES.length} random queries, ${answered} answered from rollups and compared (${[...byRollup].map(([r, n]) => `${r} ${n}`).join(', ')})`);
    // Most queries are of a shape some rollup holds; every rollup answers some.
    expect(answered).toBeGreaterThan(QUERIES.length * 0.6);
    expect([...byRollup.keys()].sort()).toEqual(['by_hour', 'by_order_day', 'daily', 'monthly_region', 'paris_daily', 'recent_daily', 'totals_by_region']);
  }, 60_000);
}

describe('rollups answer as the DuckDB source does', () => {
  differential('duckdb', async () => {
    const file = path.join(dir, 'facts.duckdb');
    await loadDuckDbFacts(file, ROWS);
    return { model: linked('main.orders'), source: openWarehouse({ engine: 'duckdb', path: file }), store: await RollupStore.open(path.join(dir, 'duck-rollups.duckdb')) };
  });
});

describe.runIf(postgresUp)('rollups answer as the PostgreSQL source does', () => {
  differential('postgres', async () => {
    await loadPostgresFacts(POSTGRES_URL, schema, ROWS);
    const url = new URL(POSTGRES_URL);
    const source = openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: url.username });
    return { model: linked(`${schema}.orders`), source, store: await RollupStore.open(path.join(dir, 'pg-rollups.duckdb')) };
  });
});

describe.runIf(postgresUp)('rollups stored in a rollup schema of PostgreSQL answer as the source does', () => {
  differential('postgres rollup schema', async () => {
    await loadPostgresFacts(POSTGRES_URL, `${schema}_rs`, ROWS);
    const url = new URL(POSTGRES_URL);
    const source = openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: url.username });
    const store = new WarehouseRollupStore('differential', `${schema}_rollups`, source, source.rollupWriter!(`${schema}_rollups`));
    return { model: linked(`${schema}_rs.orders`), source, store };
  });
});
