// The statements a rollup writer runs, per engine, kept as golden files (Snowflake's cannot be run
// here): the table created from the build SELECT's own types with no row read, the partition's rows
// deleted and the groups inserted in one transaction, counted against the cap with their latest source
// time; and the answer statement over the stored table, in the engine's dialect, naming its schema.
// Every name is quoted, every value a parameter; a name that is not a plain identifier is refused.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { rollupAnswerStatement } from '../../src/core/semantic/rollup-answer-sql.js';
import { rollupBuildStatement } from '../../src/core/semantic/rollup-build-sql.js';
import { ordersNode } from '../../src/core/semantic/rollup-test-model.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { RollupWriteSql, type WriteStatement } from '../../src/core/warehouse/rollup-write-sql.js';
import type { RollupWrite } from '../../src/core/warehouse/rollup-writer.js';
import { SnowflakeRollupWriter } from '../../src/core/warehouse/snowflake-rollup-writer.js';
import { rollupWrite } from '../../src/rollups/build-rollup.js';
import { goldenText } from '../semantic/golden-file.js';

const DIR = path.join(import.meta.dirname, 'rollup-golden');
const NOW = new Date('2025-06-18T10:00:00Z');
const model = compileModel([{ path: 'm.cml', content: ordersNode('rollup monthly { dimensions: [region]  measures: [revenue, avg_amount, order_count]  time: created_at  grain: month  partition: year  refresh: on_deploy }') }]).model!;
const rollup = model.nodes.get('orders')!.rollups[0]!;
const TABLE = 'r0123456789_0011223344556677_orders__monthly';

function writeOf(engine: 'postgres' | 'snowflake'): RollupWrite {
  const partition = { start: new Date('2024-01-01T00:00:00Z'), end: new Date('2025-01-01T00:00:00Z') };
  const statement = rollupBuildStatement(model, rollup, { dialect: DIALECTS[engine], now: NOW, maxRows: 1001, partition });
  return rollupWrite(TABLE, statement.compiled, statement.columns, { timeColumn: 'created_at__month', range: partition }, 1000);
}

const text = (steps: readonly WriteStatement[]) => steps.map((s) => `${s.sql};\n-- params: ${JSON.stringify(s.params)}\n`).join('\n');

function answerText(engine: 'postgres' | 'snowflake', schema: string): string {
  const types = engine === 'postgres' ? ['BIGINT', 'NUMERIC', 'BIGINT', 'BIGINT'] : ['NUMBER(38,0)', 'NUMBER(38,2)', 'NUMBER(38,0)', 'NUMBER(38,0)'];
  const measureColumns = rollup.columns.filter((c) => c.kind === 'measure').map((c) => c.name);
  const columnTypes = new Map(measureColumns.map((name, i) => [name, types[i] ?? types[0]!]));
  const query = semanticQuerySchema.parse({ node: 'orders', dimensions: ['created_at.year'], measures: ['revenue', 'avg_amount'], filters: [{ field: 'created_at', operator: 'gte', value: '2024-01-01' }] });
  const statement = rollupAnswerStatement(model, rollup, { name: TABLE, schema, columnTypes }, query, { sourceEngine: engine, storeEngine: engine, attributes: { region: 'north' }, now: NOW });
  return `${statement.sql};\n-- params: ${JSON.stringify(statement.params)}\n`;
}

describe('PostgreSQL', () => {
  const sql = new RollupWriteSql('postgres', 'rollups');
  it('builds a partition', () => {
    const write = writeOf('postgres');
    const actual = text([sql.tableExists(TABLE), sql.lockSchema(), sql.schemaExists(), sql.createSchema(), sql.createTable(write), sql.deleteRows(TABLE, write.target), sql.insertCounted(write)]);
    expect(actual).toBe(goldenText(path.join(DIR, 'build.postgres.sql'), actual));
  });

  it('answers from the stored table', () => {
    const actual = answerText('postgres', 'rollups');
    expect(actual).toBe(goldenText(path.join(DIR, 'answer.postgres.sql'), actual));
  });
});

describe('Snowflake', () => {
  const writer = new SnowflakeRollupWriter('ROLLUPS', () => Promise.reject(new Error('not connected')));
  it('builds a partition', () => {
    const { tableExists, schemaExists, createSchema, createTable, prepare, count, replace } = writer.replaceStatements(writeOf('snowflake'));
    const actual = text([tableExists, schemaExists, createSchema, createTable, ...prepare, count, ...replace]);
    expect(actual).toBe(goldenText(path.join(DIR, 'build.snowflake.sql'), actual));
  });

  it('answers from the stored table', () => {
    const actual = answerText('snowflake', 'ROLLUPS');
    expect(actual).toBe(goldenText(path.join(DIR, 'answer.snowflake.sql'), actual));
  });

  it('a build whole deletes every row', () => {
    const sql = new RollupWriteSql('snowflake', 'ROLLUPS');
    expect(sql.deleteRows(TABLE, undefined)).toEqual({ sql: `DELETE FROM "ROLLUPS"."${TABLE}"`, params: [] });
  });
});

it('refuses a schema or a table that is not a plain identifier', () => {
  expect(() => new RollupWriteSql('postgres', 'a"b')).toThrow(/not a plain identifier/);
  expect(() => new RollupWriteSql('snowflake', 'x; DROP')).toThrow(/not a plain identifier/);
  expect(() => new RollupWriteSql('postgres', 'rollups').dropTable('t"; DROP TABLE x; --')).toThrow(/not a plain identifier/);
});
