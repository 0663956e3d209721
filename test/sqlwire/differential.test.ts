// The SQL interface against C: a few hundred random governed SELECTs (random-sql-queries.ts), each sent
// over the wire by node-postgres (the simple protocol, or the extended one with `$n` parameters), must
// answer exactly the rows C's POST /v1/query answers over HTTPS for the same question (governed-answers.ts
// says how values are compared). On a DuckDB and on a PostgreSQL warehouse, for two members whose data
// keys give them different regions' orders, each through their own structured key on both sides; and
// where the data key decides the answer (the region is selected), the two members' answers must differ.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW } from '../helpers/clock.js';
import { hasService } from '../helpers/services.js';
import { differentialApp, type Member, type WarehouseEngine, type WarehouseWorkspace } from './differential-app.js';
import { difference, fromSql, type Answers } from './governed-answers.js';
import { randomSqlCases, type SqlCase } from './random-sql-queries.js';
import { connect } from './sql-app.js';

/** Random queries per warehouse, each asked by both members. */
const QUERIES = 160;
/** Statements in flight per member: two connections, each with its C request beside it. */
const CONNECTIONS_PER_MEMBER = 2;

const WAREHOUSES: ReadonlyArray<{ engine: WarehouseEngine; timezone: string; seed: number; available: boolean }> = [
  { engine: 'duckdb', timezone: 'UTC', seed: 1_101, available: true },
  // A zone with summer time: truncation to days and months happens on the workspace's clock.
  { engine: 'postgres', timezone: 'Europe/Berlin', seed: 2_202, available: await hasService('postgres') },
];

const app = differentialApp();

interface Outcome {
  readonly sqlCase: SqlCase;
  readonly member: Member;
  readonly answers: Answers;
}

async function ask(client: pg.Client, member: Member, sqlCase: SqlCase): Promise<Outcome> {
  const sql = client
    .query<unknown[]>(sqlCase.params ? { text: sqlCase.sql, values: sqlCase.params, rowMode: 'array' } : { text: sqlCase.sql, rowMode: 'array' })
    .then((result) => ({ rows: result.rows as Array<Array<string | null>> }))
    .catch((error: { code?: string; message: string }) => ({ error: { code: error.code, message: error.message } }));
  const c = sqlCase.noRows ? Promise.resolve(undefined) : app().queryC(member.key, sqlCase.query);
  return { sqlCase, member, answers: { sql: await sql, c: await c } };
}

/** Every case asked by one member, on a few connections at once. */
async function askAll(member: Member, cases: readonly SqlCase[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    const client = await connect(app().clientConfig(member.key));
    try {
      while (next < cases.length) outcomes.push(await ask(client, member, cases[next++]!));
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS_PER_MEMBER }, worker));
  return outcomes;
}

/** The region values of a case's answer over SQL (empty when it has no region column or failed). */
function regionsOf(outcome: Outcome): string[] {
  const column = outcome.sqlCase.regionColumn;
  if (column === undefined || !('rows' in outcome.answers.sql)) return [];
  return outcome.answers.sql.rows.map((row) => String(fromSql(row[column]!, 'text')));
}

// A warehouse that does not answer is left out here; with REQUIRE_SERVICES=1 (CI) hasService fails instead.
describe.each(WAREHOUSES.filter((w) => w.available))('the SQL interface and C answer alike on $engine', ({ engine, timezone, seed }) => {
  let ws: WarehouseWorkspace;
  beforeAll(async () => {
    ws = await app().workspace(engine, timezone);
  }, 120_000);

  it(`gives C's rows for ${QUERIES} random queries, for each of two members`, async () => {
    const cases = randomSqlCases(seed, QUERIES, TEST_NOW);
    const [first, second] = await Promise.all(ws.members.map((member) => askAll(member, cases)));
    const outcomes = [...first!, ...second!];
    expect(outcomes).toHaveLength(2 * QUERIES);

    const mismatches = outcomes.flatMap((o) => {
      const problem = difference(o.sqlCase, o.answers);
      return problem ? [`[${o.member.region}] ${o.sqlCase.sql}${o.sqlCase.params ? ` -- ${JSON.stringify(o.sqlCase.params)}` : ''}\n  C: ${JSON.stringify(o.sqlCase.query)}\n  ${problem}`] : [];
    });
    expect(mismatches.slice(0, 10).join('\n\n'), `${mismatches.length} of ${outcomes.length} answers differ`).toBe('');

    // Answers with rows, not only empty ones agreeing: most questions find data.
    const answered = outcomes.filter((o) => o.sqlCase.noRows || ('rows' in o.answers.sql && o.answers.sql.rows.length > 0));
    expect(answered.length).toBeGreaterThan(outcomes.length * 0.6);

    // Where the region is selected, each member sees only their own; so their answers differ.
    const byCase = new Map<SqlCase, Outcome[]>();
    for (const o of outcomes) byCase.set(o.sqlCase, [...(byCase.get(o.sqlCase) ?? []), o]);
    let decided = 0;
    for (const [sqlCase, pair] of byCase) {
      if (sqlCase.regionColumn === undefined || sqlCase.noRows) continue;
      for (const o of pair) expect(new Set(regionsOf(o)), sqlCase.sql).toEqual(new Set(regionsOf(o).length ? [o.member.region] : []));
      const [a, b] = pair.map(regionsOf);
      if (a!.length + b!.length === 0) continue;
      decided++;
      expect(pair[0]!.answers.sql, sqlCase.sql).not.toEqual(pair[1]!.answers.sql);
    }
    expect(decided).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it('keeps each member to their region, over SQL as in C', async () => {
    for (const member of ws.members) {
      const client = await connect(app().clientConfig(member.key));
      try {
        const { rows } = await client.query({ text: 'SELECT ship_region, MEASURE(order_count) AS n FROM orders GROUP BY 1', rowMode: 'array' });
        expect(rows).toHaveLength(1);
        expect(rows[0]![0]).toBe(member.region);
        const c = await app().queryC(member.key, { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'] });
        expect(c.body.data).toEqual([{ ship_region: member.region, order_count: Number(rows[0]![1]) }]);
      } finally {
        await client.end();
      }
    }
  });
});
