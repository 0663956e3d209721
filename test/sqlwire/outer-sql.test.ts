// The text an outer query runs as: each governed part read from its JSON parameter, typed as the
// part's columns, and positions in that text mapped back to the client's.
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyStatements, type OuterStatement } from '../../src/core/sqlapi/classify.js';
import { loadSqlParser } from '../../src/core/sqlapi/pg-ast.js';
import type { GovernedColumn } from '../../src/core/sqlapi/translate.js';
import { outerParamTypes, outerSql, paramNumbers, partRowsJson } from '../../src/sqlwire/outer-query.js';

beforeAll(() => loadSqlParser());

const A = 'SELECT channel, MEASURE(order_count) AS n FROM orders GROUP BY 1';
const B = 'SELECT channel, MEASURE(order_count) AS n FROM orders WHERE status = $1 GROUP BY 1';
const columns: GovernedColumn[] = [
  { name: 'channel', field: 'channel', kind: 'dimension', type: 'string' },
  { name: 'n', field: 'order_count', kind: 'measure', type: 'number', measureType: 'count' },
];

function outer(sql: string): OuterStatement {
  const [statement] = classifyStatements(sql);
  if (statement?.kind !== 'outer') throw new Error(`not an outer query: ${sql}`);
  return statement;
}

describe('outerSql', () => {
  const sql = `SELECT a.n - b.n AS gap FROM (${A}) a JOIN (${B}) b USING (channel) WHERE a.n > $2 AND nope`;
  const statement = outer(sql);
  const rewritten = outerSql(statement, [columns, columns], 2);

  it('reads each part from a parameter after the client\'s, with its columns named and typed', () => {
    expect(rewritten.partParams).toEqual([3, 4]);
    const part = (n: number) => `SELECT g.c1 AS "channel", g.c2 AS "n" FROM pg_catalog.json_to_recordset($${n}::pg_catalog.json) AS g(c1 text, c2 bigint)`;
    expect(rewritten.sql).toBe(`SELECT a.n - b.n AS gap FROM (${part(3)}) a JOIN (${part(4)}) b USING (channel) WHERE a.n > $2 AND nope`);
    expect(outerParamTypes([25], 2, 2)).toEqual([25, 0, 114, 114]);
  });

  it('maps positions back: before, inside and after the parts', () => {
    const at = (text: string, token: string) => text.indexOf(token) + 1;
    expect(rewritten.originalPosition(at(rewritten.sql, 'gap'))).toBe(at(sql, 'gap'));
    expect(rewritten.originalPosition(at(rewritten.sql, 'nope'))).toBe(at(sql, 'nope'));
    expect(rewritten.originalPosition(at(rewritten.sql, 'USING'))).toBe(at(sql, 'USING'));
    // Inside a replaced part: the part's start.
    expect(rewritten.originalPosition(rewritten.sql.lastIndexOf('json_to_recordset') + 1)).toBe(sql.indexOf(B) + 1);
    expect(rewritten.originalPosition(undefined)).toBeUndefined();
  });

  it('knows which parameters each part uses', () => {
    expect([...paramNumbers(statement.ast)].sort()).toEqual([1, 2]);
    expect([...paramNumbers(statement.parts[1]!.statement.ast)]).toEqual([1]);
    expect([...paramNumbers(statement.parts[0]!.statement.ast)]).toEqual([]);
  });

  it('gives rows as JSON by position, so two columns may share a name', () => {
    const twice: GovernedColumn[] = [columns[0]!, { ...columns[0]!, name: 'channel' }];
    expect(partRowsJson(twice, [{ channel: 'web' }, { channel: null }])).toBe('[{"c1":"web","c2":"web"},{"c1":null,"c2":null}]');
  });
});
