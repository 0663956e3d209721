// Governed SELECTs on the demo model → the exact body of a semantic query (C's POST /v1/query), the
// columns the client is told of, and the types of its parameters; every refusal with its SQLSTATE,
// message, hint and position. Every translation must also be a query the governed path accepts: it
// passes semanticQuerySchema unchanged and compiles on the demo model.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { semanticQuerySchema, type SemanticQuery } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { classifyStatements, type GovernedStatement } from '../../src/core/sqlapi/classify.js';
import { loadSqlParser } from '../../src/core/sqlapi/pg-ast.js';
import { SqlStateError } from '../../src/core/sqlapi/sql-state-error.js';
import { sqlTablesOf, type SqlTable } from '../../src/core/sqlapi/tables.js';
import { describeParams, translateSelect, type GovernedSelect } from '../../src/core/sqlapi/translate.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { demoModel } from '../semantic/fixture.js';
import { TestClock } from '../helpers/clock.js';

// Every "now" of these tests is the test clock's (a fixed instant, whatever the machine's date).
const NOW = new TestClock().now();
let model: SemanticModel;
let tables: SqlTable[];

beforeAll(async () => {
  await loadSqlParser();
  model = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
  tables = sqlTablesOf(model);
});

function governed(sql: string): GovernedStatement {
  const [statement] = classifyStatements(sql);
  if (statement?.kind !== 'governed') throw new Error(`not a governed statement: ${sql}`);
  return statement;
}

/** The translation, checked to be a query the governed path runs as it is. */
function translate(sql: string, params: Array<string | null> = [], on: { model: SemanticModel; tables: SqlTable[] } = { model, tables }): GovernedSelect {
  const result = translateSelect(governed(sql), params, on.tables);
  expect(semanticQuerySchema.parse(result.query)).toEqual(result.query);
  expect(() => compileQuery(on.model, result.query, { dialect: DIALECTS.postgres, attributes: { region: '*' }, now: NOW })).not.toThrow();
  return result;
}

/** A semantic query's body with the parts a case does not name left empty. */
function body(parts: Partial<SemanticQuery>): SemanticQuery {
  return { node: 'orders', dimensions: [], measures: [], filters: [], sorts: [], ...parts };
}

function refusal(sql: string, params: Array<string | null> = []): { sqlstate: string; message: string; hint?: string; position?: number } {
  try {
    translateSelect(governed(sql), params, tables);
  } catch (error) {
    if (!(error instanceof SqlStateError)) throw error;
    return { sqlstate: error.sqlstate, message: error.message, ...(error.hint !== undefined ? { hint: error.hint } : {}), ...(error.position !== undefined ? { position: error.position } : {}) };
  }
  throw new Error(`expected a refusal: ${sql}`);
}

/** 1-based position of the first `token` in `sql` (after `after`, when given). */
function at(sql: string, token: string, after = ''): number {
  return sql.indexOf(token, after ? sql.indexOf(after) : 0) + 1;
}

const notNull = (field: string) => ({ field, operator: 'notNull' });

describe('SELECT lists, grouping, order and limit → the semantic query', () => {
  it.each<[string, SemanticQuery]>([
    ['SELECT status, MEASURE(order_count) FROM orders GROUP BY status', body({ dimensions: ['status'], measures: ['order_count'] })],
    ['SELECT SUM(gross_revenue) FROM orders', body({ measures: ['gross_revenue'] })],
    ['SELECT COUNT(order_count), COUNT(DISTINCT buyers), MEASURE(average_order_value) FROM orders', body({ measures: ['order_count', 'buyers', 'average_order_value'] })],
    ['SELECT category, AVG(average_price) FROM products GROUP BY 1', body({ node: 'products', dimensions: ['category'], measures: ['average_price'] })],
    ['SELECT o.status, MEASURE(o.order_count) FROM public.orders AS o GROUP BY o.status', body({ dimensions: ['status'], measures: ['order_count'] })],
    ['SELECT orders.channel FROM commerce.orders GROUP BY orders.channel', body({ dimensions: ['channel'] })],
    ['SELECT public.orders.channel FROM orders GROUP BY 1', body({ dimensions: ['channel'] })],
    ['SELECT DISTINCT channel FROM orders', body({ dimensions: ['channel'] })],
    ['SELECT DISTINCT status, MEASURE(order_count) FROM orders GROUP BY 1', body({ dimensions: ['status'], measures: ['order_count'] })],
    [
      "SELECT DATE_TRUNC('month', created_at) AS month, SUM(gross_revenue) FROM orders GROUP BY month ORDER BY month",
      body({ dimensions: ['created_at.month'], measures: ['gross_revenue'], sorts: [{ field: 'created_at.month', direction: 'asc' }] }),
    ],
    ["SELECT date_trunc('WEEKS', created_at), MEASURE(order_count) FROM orders GROUP BY date_trunc('weeks', created_at)", body({ dimensions: ['created_at.week'], measures: ['order_count'] })],
    ['SELECT created_at::date, MEASURE(order_count) FROM orders GROUP BY 1', body({ dimensions: ['created_at.day'], measures: ['order_count'] })],
    ['SELECT CAST(created_at AS date) AS day FROM orders GROUP BY CAST(created_at AS date)', body({ dimensions: ['created_at.day'] })],
    ["SELECT DATE_TRUNC('month', created_at)::date FROM orders GROUP BY 1", body({ dimensions: ['created_at.month'] })],
    ["SELECT DATE_TRUNC('hour', created_at)::date FROM orders GROUP BY 1", body({ dimensions: ['created_at.day'] })],
    ["SELECT DATE_TRUNC('quarter', \"customers.signup_at\"), MEASURE(order_count) FROM orders GROUP BY 1", body({ dimensions: ['customers.signup_at.quarter'], measures: ['order_count'] })],
    ['SELECT "customers.region", MEASURE(order_count) FROM orders GROUP BY 1', body({ dimensions: ['customers.region'], measures: ['order_count'] })],
    ['SELECT customers.segment, MEASURE("customers.customer_count") FROM orders GROUP BY customers.segment', body({ dimensions: ['customers.segment'], measures: ['customers.customer_count'] })],
    ['SELECT status::text, SUM(gross_revenue)::numeric FROM orders GROUP BY 1', body({ dimensions: ['status'], measures: ['gross_revenue'] })],
    // Casts that keep every value: a count to an integer type, any measure to float8, text without a length.
    [
      'SELECT status::varchar, COUNT(order_count)::int, COUNT(DISTINCT buyers)::int8, SUM(gross_revenue)::float8 FROM orders GROUP BY 1',
      body({ dimensions: ['status'], measures: ['order_count', 'buyers', 'gross_revenue'] }),
    ],
    ['SELECT status, status AS again, MEASURE(order_count) FROM orders GROUP BY status', body({ dimensions: ['status'], measures: ['order_count'] })],
    [
      'SELECT status, MEASURE(order_count) AS n FROM orders GROUP BY status ORDER BY n DESC, 1',
      body({ dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'desc' }, { field: 'status', direction: 'asc' }] }),
    ],
    [
      'SELECT status, SUM(gross_revenue) FROM orders GROUP BY status ORDER BY SUM(gross_revenue) DESC NULLS LAST, status ASC LIMIT 10',
      body({ dimensions: ['status'], measures: ['gross_revenue'], sorts: [{ field: 'gross_revenue', direction: 'desc' }, { field: 'status', direction: 'asc' }], limit: 10 }),
    ],
    ['SELECT status, MEASURE(order_count) FROM orders GROUP BY status ORDER BY order_count', body({ dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'asc' }] })],
    ['SELECT status FROM orders GROUP BY 1 ORDER BY 1, status DESC', body({ dimensions: ['status'], sorts: [{ field: 'status', direction: 'asc' }] })],
    ['SELECT status FROM orders GROUP BY 1 FETCH FIRST 5 ROWS ONLY', body({ dimensions: ['status'], limit: 5 })],
    ['SELECT status FROM orders GROUP BY 1 LIMIT ALL OFFSET 0', body({ dimensions: ['status'] })],
  ])('%s', (sql, expected) => {
    expect(translate(sql).query).toEqual(expected);
  });
});

describe('WHERE and HAVING → filters', () => {
  const base = 'SELECT status, MEASURE(order_count) FROM orders';
  const grouped = (filters: unknown[]) => body({ dimensions: ['status'], measures: ['order_count'], filters: filters as SemanticQuery['filters'] });
  it.each<[string, unknown[]]>([
    ["WHERE status = 'completed'", [{ field: 'status', operator: 'equals', value: 'completed' }]],
    ["WHERE 'web' = channel", [{ field: 'channel', operator: 'equals', value: 'web' }]],
    // SQL's <> drops the rows without a value; the compiler's notEquals keeps them, hence notNull.
    ["WHERE channel <> 'web' AND status != 'pending'", [{ field: 'channel', operator: 'notEquals', value: 'web' }, notNull('channel'), { field: 'status', operator: 'notEquals', value: 'pending' }, notNull('status')]],
    ["WHERE status IN ('completed', 'refunded')", [{ field: 'status', operator: 'in', value: ['completed', 'refunded'] }]],
    ["WHERE status NOT IN ('cancelled')", [{ field: 'status', operator: 'notIn', value: ['cancelled'] }, notNull('status')]],
    ["WHERE created_at BETWEEN '2025-01-01' AND '2025-03-31 23:59:59'", [{ field: 'created_at', operator: 'between', value: ['2025-01-01', '2025-03-31 23:59:59'] }]],
    ["WHERE created_at NOT BETWEEN '2025-01-01' AND '2025-03-31'", [{ field: 'created_at', operator: 'notBetween', value: ['2025-01-01', '2025-03-31'] }, notNull('created_at')]],
    ["WHERE created_at >= DATE '2025-01-01' AND created_at < TIMESTAMP '2025-02-01 00:00:00' AND created_at <= '2025-01-31'::date", [
      { field: 'created_at', operator: 'gte', value: '2025-01-01' },
      { field: 'created_at', operator: 'lt', value: '2025-02-01 00:00:00' },
      { field: 'created_at', operator: 'lte', value: '2025-01-31' },
    ]],
    ["WHERE created_at > '2025-01-01 10:00:00+02'", [{ field: 'created_at', operator: 'gt', value: '2025-01-01T10:00:00+02:00' }]],
    ["WHERE created_at::date = '2025-03-01' AND DATE_TRUNC('year', created_at) = '2025-01-01'", [{ field: 'created_at.day', operator: 'equals', value: '2025-03-01' }, { field: 'created_at.year', operator: 'equals', value: '2025-01-01' }]],
    // PostgreSQL reads a timestamp's text as a date by its day (time and offset dropped), and a typed
    // constant as its type: DATE '…' is a midnight, TIMESTAMP '…' keeps its time against a date.
    [
      "WHERE created_at::date = '2025-03-01 10:00:00' AND CAST(created_at AS date) < '2025-04-01T23:00:00+05' AND created_at >= DATE '2025-02-01 18:00' AND created_at < '2025-05-01 06:00'::date",
      [
        { field: 'created_at.day', operator: 'equals', value: '2025-03-01' },
        { field: 'created_at.day', operator: 'lt', value: '2025-04-01' },
        { field: 'created_at', operator: 'gte', value: '2025-02-01' },
        { field: 'created_at', operator: 'lt', value: '2025-05-01' },
      ],
    ],
    ["WHERE created_at::date <= TIMESTAMP '2025-03-15 12:00:00'", [{ field: 'created_at.day', operator: 'lte', value: '2025-03-15 12:00:00' }]],
    ['WHERE status IS NULL OR channel IS NOT NULL', [{ or: [{ field: 'status', operator: 'isNull' }, notNull('channel')] }]],
    ['WHERE NOT (status IS NULL)', [notNull('status')]],
    ["WHERE NOT created_at < '2025-01-01'", [{ field: 'created_at', operator: 'gte', value: '2025-01-01' }]],
    ["WHERE NOT (status = 'a' AND channel = 'b')", [{ or: [{ and: [{ field: 'status', operator: 'notEquals', value: 'a' }, notNull('status')] }, { and: [{ field: 'channel', operator: 'notEquals', value: 'b' }, notNull('channel')] }] }]],
    ["WHERE NOT status NOT IN ('a', 'b')", [{ field: 'status', operator: 'in', value: ['a', 'b'] }]],
    ["WHERE (status = 'completed' OR status = 'refunded') AND channel = 'web'", [{ or: [{ field: 'status', operator: 'equals', value: 'completed' }, { field: 'status', operator: 'equals', value: 'refunded' }] }, { field: 'channel', operator: 'equals', value: 'web' }]],
    ["WHERE status = 'a' OR (status = 'b' OR status = 'c')", [{ or: [{ field: 'status', operator: 'equals', value: 'a' }, { field: 'status', operator: 'equals', value: 'b' }, { field: 'status', operator: 'equals', value: 'c' }] }]],
    ["WHERE TRUE AND 1 = 1 AND status = 'x'", [{ field: 'status', operator: 'equals', value: 'x' }]],
    ["WHERE channel ILIKE '%web%'", [{ field: 'channel', operator: 'contains', value: 'web' }]],
    ["WHERE channel ILIKE 'Mob%' AND channel ILIKE '%place'", [{ field: 'channel', operator: 'startsWith', value: 'Mob' }, { field: 'channel', operator: 'endsWith', value: 'place' }]],
    ["WHERE LOWER(status) LIKE '%comp%' AND UPPER(channel) LIKE 'WEB%'", [{ field: 'status', operator: 'contains', value: 'comp' }, { field: 'channel', operator: 'startsWith', value: 'WEB' }]],
    ["WHERE \"customers.country\" LIKE '%-1%' AND status LIKE 'completed'", [{ field: 'customers.country', operator: 'contains', value: '-1' }, { field: 'status', operator: 'equals', value: 'completed' }]],
    ["WHERE status LIKE '100\\%%'", [{ field: 'status', operator: 'startsWith', value: '100%' }]],
    ["WHERE channel NOT ILIKE '%web%'", [{ and: [{ field: 'channel', operator: 'notContains', value: 'web' }, notNull('channel')] }]],
    ["WHERE channel ILIKE '%'", [notNull('channel')]],
    ["HAVING SUM(gross_revenue) > 1000 AND MEASURE(order_count) BETWEEN 10 AND 20", [{ field: 'gross_revenue', operator: 'gt', value: 1000 }, { field: 'order_count', operator: 'between', value: [10, 20] }]],
    ['HAVING COUNT(DISTINCT buyers) >= 3 OR MEASURE(order_count) < 2', [{ or: [{ field: 'buyers', operator: 'gte', value: 3 }, { field: 'order_count', operator: 'lt', value: 2 }] }]],
    ["HAVING status <> 'x'", [{ field: 'status', operator: 'notEquals', value: 'x' }, notNull('status')]],
    ['HAVING MEASURE(average_order_value) <> 0', [{ field: 'average_order_value', operator: 'notEquals', value: 0 }, notNull('average_order_value')]],
  ])(`${base} %s GROUP BY status`, (clause, filters) => {
    const sql = clause.startsWith('HAVING') ? `${base} GROUP BY status ${clause}` : `${base} ${clause} GROUP BY status`;
    expect(translate(sql).query).toEqual(grouped(filters));
  });

  it('filters numbers with numbers, in WHERE and HAVING', () => {
    const sql = "SELECT quantity, SUM(units_sold) FROM order_items WHERE quantity NOT BETWEEN 2 AND 5 AND quantity > -3 AND unit_price > 10.5 AND quantity <> '7' GROUP BY 1 HAVING SUM(units_sold) > 1e3";
    expect(translate(sql).query).toEqual(
      body({
        node: 'order_items',
        dimensions: ['quantity'],
        measures: ['units_sold'],
        filters: [
          { field: 'quantity', operator: 'notBetween', value: [2, 5] },
          notNull('quantity'),
          { field: 'quantity', operator: 'gt', value: -3 },
          { field: 'unit_price', operator: 'gt', value: 10.5 },
          { field: 'quantity', operator: 'notEquals', value: 7 },
          notNull('quantity'),
          { field: 'units_sold', operator: 'gt', value: 1000 },
        ],
      }),
    );
  });

  it('takes a HAVING filter on a measure the query does not select', () => {
    const result = translate('SELECT status FROM orders GROUP BY 1 HAVING MEASURE(buyers) >= 3');
    expect(result.query).toEqual(body({ dimensions: ['status'], filters: [{ field: 'buyers', operator: 'gte', value: 3 }] }));
  });

  it('reads MIN and MAX measures through MIN() and MAX() (the hand-built fixture model has one)', () => {
    const fixture = demoModel();
    const on = { model: fixture, tables: sqlTablesOf(fixture) };
    expect(translate('SELECT MIN(first_order_at) FROM orders', [], on).query).toEqual(body({ measures: ['first_order_at'] }));
    expect(() => translateSelect(governed('SELECT MAX(first_order_at) FROM orders'), [], on.tables)).toThrow('MAX(first_order_at) does not compute measure "first_order_at": it is a min measure');
  });

  it('reads booleans as PostgreSQL does: TRUE, IS TRUE, a column alone, and text such as yes or f', () => {
    const fixture = demoModel();
    const on = { model: fixture, tables: sqlTablesOf(fixture) };
    const sql =
      "SELECT status, MEASURE(order_count) FROM orders WHERE is_completed AND NOT is_completed AND is_completed IS TRUE AND is_completed IS NOT FALSE AND is_completed = 'yes' AND is_completed = $1 AND is_completed <> false GROUP BY 1";
    expect(translate(sql, ['f'], on).query.filters).toEqual([
      { field: 'is_completed', operator: 'equals', value: true },
      { field: 'is_completed', operator: 'equals', value: false },
      { field: 'is_completed', operator: 'equals', value: true },
      { field: 'is_completed', operator: 'notEquals', value: false },
      { field: 'is_completed', operator: 'equals', value: true },
      { field: 'is_completed', operator: 'equals', value: false },
      { field: 'is_completed', operator: 'notEquals', value: false },
      notNull('is_completed'),
    ]);
    expect(describeParams(governed(sql), on.tables)).toEqual(['bool']);
  });
});

describe('parameters', () => {
  const sql = "SELECT status, MEASURE(order_count) FROM orders WHERE status = $1 AND created_at >= $2 AND \"customers.segment\" ILIKE $4 GROUP BY 1 HAVING MEASURE(order_count) > $3 LIMIT $5";

  it('are typed by what each is compared with, for ParameterDescription', () => {
    expect(describeParams(governed(sql), tables)).toEqual(['text', 'timestamp', 'numeric', 'text', 'int8']);
    expect(describeParams(governed('SELECT status FROM orders WHERE "order_items.quantity" > $2 GROUP BY 1'), tables)).toEqual(['text', 'numeric']);
    expect(describeParams(governed('SELECT status FROM orders GROUP BY 1'), tables)).toEqual([]);
  });

  it('arrive as text and are read as the type of their column', () => {
    const result = translate(sql, ['completed', '2025-01-01 08:00', '10', '%business%', '50']);
    expect(result.query).toEqual(
      body({
        dimensions: ['status'],
        measures: ['order_count'],
        filters: [
          { field: 'status', operator: 'equals', value: 'completed' },
          { field: 'created_at', operator: 'gte', value: '2025-01-01 08:00' },
          { field: 'customers.segment', operator: 'contains', value: 'business' },
          { field: 'order_count', operator: 'gt', value: 10 },
        ],
        limit: 50,
      }),
    );
    expect(result.limitGiven).toBe(true);
  });

  it('are read as a date where they meet a date or are cast to one, as PostgreSQL reads them', () => {
    const result = translate('SELECT status FROM orders WHERE created_at::date = $1 AND created_at < $2::date AND created_at > $3::timestamp GROUP BY 1', [
      '2025-03-01 10:00:00',
      '2025-04-01 18:30:00',
      '2025-02-01 18:30:00',
    ]);
    expect(result.query.filters).toEqual([
      { field: 'created_at.day', operator: 'equals', value: '2025-03-01' },
      { field: 'created_at', operator: 'lt', value: '2025-04-01' },
      { field: 'created_at', operator: 'gt', value: '2025-02-01 18:30:00' },
    ]);
  });

  it('may be used twice, and a NULL LIMIT is no limit', () => {
    const result = translate('SELECT status FROM orders WHERE status = $1 OR channel = $1 GROUP BY 1 LIMIT $2', ['web', null]);
    expect(result.query).toEqual(body({ dimensions: ['status'], filters: [{ or: [{ field: 'status', operator: 'equals', value: 'web' }, { field: 'channel', operator: 'equals', value: 'web' }] }] }));
    expect(result.limitGiven).toBe(false);
  });

  it.each<[string, Array<string | null>, string, string, string | undefined, string]>([
    ['SELECT status FROM orders WHERE "order_items.quantity" > $1 GROUP BY 1', ['many'], '22P02', 'invalid input syntax for type numeric: "many"', undefined, '$1'],
    ['SELECT status FROM orders WHERE created_at > $1 GROUP BY 1', ['yesterday'], '22007', 'invalid input syntax for type timestamp: "yesterday"', 'Write dates as YYYY-MM-DD and timestamps as YYYY-MM-DD HH:MM:SS.', '$1'],
    ['SELECT status FROM orders WHERE status = $1 AND channel = $2 GROUP BY 1', ['x'], '42P02', 'there is no parameter $2', undefined, '$2'],
    ['SELECT status FROM orders WHERE status = $0 GROUP BY 1', [], '42P02', 'there is no parameter $0', undefined, '$0'],
    ['SELECT status FROM orders WHERE status = $1 GROUP BY 1', [null], '22023', 'parameter $1 is NULL, and a comparison with NULL is never true', 'Write column IS NULL for the rows without a value.', '$1'],
    ['SELECT status FROM orders GROUP BY 1 LIMIT $1', ['ten'], '22P02', 'invalid input syntax for type bigint: "ten"', undefined, '$1'],
    ['SELECT status FROM orders GROUP BY 1 LIMIT $1', ['-1'], '2201W', 'LIMIT must not be negative', undefined, '$1'],
  ])('refuse %s with %j', (text, params, sqlstate, message, hint, token) => {
    expect(refusal(text, params)).toEqual({ sqlstate, message, ...(hint ? { hint } : {}), position: at(text, token) });
  });
});

describe('columns as the client sees them', () => {
  it('are named by alias, else as PostgreSQL names them, MEASURE(m) after its measure', () => {
    const sql =
      'SELECT status, o.channel AS via, "customers.region", MEASURE(order_count), SUM(gross_revenue), COUNT(DISTINCT buyers) AS buyers_n, ' +
      "DATE_TRUNC('month', created_at), created_at::date, MEASURE(average_order_value) AS aov FROM orders o GROUP BY 1, 2, 3, 7, 8";
    expect(translate(sql).columns).toEqual([
      { name: 'status', field: 'status', kind: 'dimension', type: 'string' },
      { name: 'via', field: 'channel', kind: 'dimension', type: 'string' },
      { name: 'customers.region', field: 'customers.region', kind: 'dimension', type: 'string' },
      { name: 'order_count', field: 'order_count', kind: 'measure', type: 'number', measureType: 'count' },
      { name: 'sum', field: 'gross_revenue', kind: 'measure', type: 'number', measureType: 'sum' },
      { name: 'buyers_n', field: 'buyers', kind: 'measure', type: 'number', measureType: 'count_distinct' },
      { name: 'date_trunc', field: 'created_at.month', kind: 'dimension', type: 'timestamp' },
      { name: 'created_at', field: 'created_at.day', kind: 'dimension', type: 'date' },
      { name: 'aov', field: 'average_order_value', kind: 'measure', type: 'number', measureType: 'number' },
    ]);
  });

  it('LIMIT 0 is checked and described, and answers no rows', () => {
    const result = translate('SELECT status FROM orders GROUP BY 1 LIMIT 0');
    expect(result).toMatchObject({ query: body({ dimensions: ['status'], limit: 1 }), limitGiven: true, emptyResult: true });
    expect(translate('SELECT status FROM orders GROUP BY 1')).toMatchObject({ limitGiven: false, emptyResult: false });
  });
});

describe('refusals say why, with the SQLSTATE PostgreSQL would send', () => {
  const selectForms =
    "Select dimensions, MEASURE(m) or the measure's own aggregate (SUM, COUNT, COUNT(DISTINCT), AVG, MIN, MAX), DATE_TRUNC('month', t) or t::date; for arithmetic, CASE or window functions over the result, select from it: SELECT a / b FROM (SELECT …) AS t.";
  const joins = 'A query reads one model table; the fields of the nodes it joins are its columns, e.g. SELECT "customers.region", MEASURE(order_count) FROM orders GROUP BY 1.';
  const filtersHint = 'Compare a column with constants or $n: =, <>, <, <=, >, >=, IN, BETWEEN, LIKE, IS NULL, combined with AND, OR and NOT.';
  const changes = 'is not supported on model tables: it would round or cut the values';
  const changing = 'Read the column as it is, or cast it to numeric (numbers) or text (strings), without a length or precision.';

  it.each<[string, string, string, string | undefined, string | [string, string] | undefined]>([
    // unknown tables and columns
    ['SELECT status FROM ordrs GROUP BY 1', '42P01', 'relation "ordrs" does not exist', 'Perhaps you meant the table "orders".', 'ordrs'],
    ['SELECT status FROM sales.orders GROUP BY 1', '42P01', 'relation "sales.orders" does not exist', 'The table "orders" is in schemas public, commerce.', 'sales'],
    ['SELECT x FROM invoices_2024', '42P01', 'relation "invoices_2024" does not exist', 'The model\'s tables: customers, order_items, orders, products.', 'invoices_2024'],
    ['SELECT stauts FROM orders GROUP BY 1', '42703', 'column "stauts" does not exist', 'Perhaps you meant to reference the column "orders.status".', 'stauts'],
    ['SELECT o.region FROM orders o GROUP BY 1', '42703', 'column o.region does not exist', 'Perhaps you meant to reference the column "o.ship_region".', 'o.region'],
    ['SELECT SUM(amount) FROM orders', '42703', 'column "amount" does not exist', 'Columns of orders: status, channel, ship_region, created_at, order_count, completed_orders, cancelled_orders, gross_revenue, completed_revenue, discount_total, buyers, average_order_value, ….', 'amount'],
    ['SELECT "customers.regio" FROM orders GROUP BY 1', '42703', 'column "customers.regio" does not exist', 'Perhaps you meant to reference the column "orders.customers.region".', '"customers'],
    ['SELECT x.status FROM orders GROUP BY 1', '42P01', 'missing FROM-clause entry for table "x"', `The query reads orders. ${joins}`, 'x.status'],
    ['SELECT orders.status FROM orders o GROUP BY 1', '42P01', 'missing FROM-clause entry for table "orders"', 'Perhaps you meant to reference the table alias "o".', 'orders.status'],
    // measures and aggregates
    ['SELECT gross_revenue FROM orders', '42803', 'measure "gross_revenue" must be used in an aggregate function', 'Write MEASURE(gross_revenue) or SUM(gross_revenue).', 'gross_revenue'],
    ['SELECT SUM(buyers) FROM orders', '42803', 'SUM(buyers) does not compute measure "buyers": it is a count_distinct measure', 'Write MEASURE(buyers) or COUNT(DISTINCT buyers).', 'SUM'],
    ['SELECT AVG(gross_revenue) FROM orders', '42803', 'AVG(gross_revenue) does not compute measure "gross_revenue": it is a sum measure', 'Write MEASURE(gross_revenue) or SUM(gross_revenue).', 'AVG'],
    ['SELECT COUNT(DISTINCT order_count) FROM orders', '42803', 'COUNT(DISTINCT order_count) does not compute measure "order_count": it is a count measure', 'Write MEASURE(order_count) or COUNT(order_count).', 'COUNT'],
    ['SELECT SUM(average_order_value) FROM orders', '42803', 'SUM(average_order_value) does not compute measure "average_order_value": it is computed from other measures', 'Write MEASURE(average_order_value).', 'SUM'],
    ['SELECT SUM(status) FROM orders', '42803', 'SUM() applies to measures; column "status" is a dimension', 'Select status and GROUP BY it to split the measures by it; read measures with MEASURE(name).', 'SUM'],
    ['SELECT MEASURE(SUM(gross_revenue)) FROM orders', '42803', 'aggregate function calls cannot be nested', undefined, 'SUM'],
    ['SELECT COUNT(*) FROM orders', '0A000', 'COUNT(*) is not supported on model tables', 'Count with a count measure: COUNT(order_count), COUNT(completed_orders), COUNT(cancelled_orders).', 'COUNT'],
    ['SELECT SUM(gross_revenue) FILTER (WHERE status = \'x\') FROM orders', '0A000', 'FILTER on an aggregate is not supported', 'Filter rows with WHERE, or use a measure whose definition carries the filter.', 'SUM'],
    // grouping
    ['SELECT status, MEASURE(order_count) FROM orders', '42803', 'column "orders.status" must appear in the GROUP BY clause or be used in an aggregate function', 'GROUP BY every selected dimension, e.g. GROUP BY 1.', 'status'],
    ['SELECT status, channel, MEASURE(order_count) FROM orders o GROUP BY status', '42803', 'column "o.channel" must appear in the GROUP BY clause or be used in an aggregate function', 'GROUP BY every selected dimension, e.g. GROUP BY 1, 2.', 'channel'],
    ['SELECT status FROM orders', '0A000', 'a model table answers grouped rows, not its rows one by one', 'Group the dimensions (GROUP BY 1) or write SELECT DISTINCT.', 'status'],
    ['SELECT status FROM orders GROUP BY 2', '42P10', 'GROUP BY position 2 is not in select list', undefined, ['2', 'GROUP BY']],
    ['SELECT status, MEASURE(order_count) FROM orders GROUP BY 1, 2', '42803', 'aggregate functions are not allowed in GROUP BY', 'GROUP BY dimensions only.', ['2', 'GROUP BY']],
    ['SELECT status FROM orders GROUP BY status, channel', '0A000', 'GROUP BY a column that is not selected is not supported on model tables', 'Select every column you group by.', 'channel'],
    ['SELECT status FROM orders GROUP BY ROLLUP (status)', '0A000', 'ROLLUP, CUBE and GROUPING SETS are not supported on model tables', 'GROUP BY the selected dimensions; run one query per grouping.', 'ROLLUP'],
    ['SELECT status FROM orders GROUP BY 1 HAVING channel = \'web\'', '42803', 'column "channel" must appear in the GROUP BY clause or be used in an aggregate function', undefined, 'channel'],
    // WHERE
    ['SELECT status FROM orders WHERE SUM(gross_revenue) > 10 GROUP BY 1', '42803', 'aggregate functions are not allowed in WHERE', 'Filter on measures in HAVING.', 'SUM'],
    ['SELECT status FROM orders WHERE gross_revenue > 10 GROUP BY 1', '42803', 'measure "gross_revenue" is an aggregate: aggregate functions are not allowed in WHERE', 'Filter on measures in HAVING: HAVING SUM(gross_revenue) > …', 'gross_revenue'],
    ['SELECT status FROM orders WHERE status = NULL GROUP BY 1', '0A000', 'a comparison with NULL is never true', 'Write column IS NULL or column IS NOT NULL.', 'NULL'],
    ['SELECT status FROM orders WHERE status = channel GROUP BY 1', '0A000', 'a column can only be compared with a constant or a parameter here', filtersHint, 'channel'],
    ['SELECT status FROM orders WHERE 1 = 2 GROUP BY 1', '0A000', 'a comparison must name a column of the table', filtersHint, '='],
    ['SELECT status FROM orders WHERE status = ANY($1) GROUP BY 1', '0A000', '= ANY(…) is not supported on model tables', 'Write column IN (value, …).', '='],
    ['SELECT status FROM orders WHERE status ~ \'^c\' GROUP BY 1', '0A000', 'operator ~ is not supported in conditions on model tables', filtersHint, '~'],
    ['SELECT status FROM orders WHERE status IN (SELECT 1) GROUP BY 1', '0A000', 'subqueries are not supported on model tables', selectForms, 'IN'],
    ['SELECT status FROM orders WHERE status = 5 GROUP BY 1', '42883', 'operator does not exist: text = integer', 'Column "status" is text: write the value as a quoted string, \'5\'.', '5'],
    ['SELECT status FROM orders WHERE created_at > 2024 GROUP BY 1', '42883', 'operator does not exist: timestamp without time zone > integer', 'Column "created_at" is timestamp without time zone: write the value as a quoted string, \'2024\'.', '2024'],
    ['SELECT status FROM orders WHERE created_at > \'last week\' GROUP BY 1', '22007', 'invalid input syntax for type timestamp: "last week"', 'Write dates as YYYY-MM-DD and timestamps as YYYY-MM-DD HH:MM:SS.', "'last"],
    ['SELECT status FROM orders WHERE status IS TRUE GROUP BY 1', '42804', 'argument of IS TRUE must be type boolean, not type text', filtersHint, 'status IS'],
    ['SELECT status FROM orders WHERE created_at BETWEEN SYMMETRIC \'2025-01-01\' AND \'2024-01-01\' GROUP BY 1', '0A000', 'BETWEEN SYMMETRIC is not supported on model tables', 'Write BETWEEN low AND high.', 'BETWEEN'],
    ['SELECT status FROM orders GROUP BY 1 HAVING MEASURE(order_count) > 1 OR status = \'x\'', '0A000', 'an OR cannot combine conditions on measures with conditions on dimensions', 'Filter dimensions in WHERE and measures in HAVING, each condition on its own.', ['OR', 'HAVING']],
    // LIKE
    ["SELECT status FROM orders WHERE channel LIKE '%Web%' GROUP BY 1", '0A000', 'LIKE matches letter case, and text filters on model tables ignore it', "Write ILIKE '%Web%', or LOWER(column) LIKE '%web%'.", "'%Web%'"],
    ["SELECT status FROM orders WHERE channel ILIKE 'w_b' GROUP BY 1", '0A000', "ILIKE pattern 'w_b' is not supported on model tables", "Patterns are '%text%', 'text%' or '%text' (escape % and _ in the text with a backslash).", "'w_b'"],
    ["SELECT status FROM orders WHERE channel ILIKE 'w%b' GROUP BY 1", '0A000', "ILIKE pattern 'w%b' is not supported on model tables", "Patterns are '%text%', 'text%' or '%text' (escape % and _ in the text with a backslash).", "'w%b'"],
    ["SELECT status FROM orders WHERE channel NOT ILIKE 'w%' GROUP BY 1", '0A000', "NOT ILIKE 'w%' is not supported on model tables", "NOT ILIKE takes '%text%' here.", "'w%'"],
    ["SELECT status FROM orders WHERE channel ILIKE 'web' GROUP BY 1", '0A000', 'a match ignoring case without a wildcard is not supported on model tables', "Write column = 'web' (case-sensitive) or ILIKE '%web%'.", "'web'"],
    ["SELECT status FROM orders WHERE LOWER(channel) LIKE '%Web%' GROUP BY 1", '0A000', "LOWER(column) never matches '%Web%', which has upper-case letters", "Write the pattern in lower case: '%web%'.", "'%Web%'"],
    ["SELECT status FROM orders WHERE channel LIKE 'web' ESCAPE '!' GROUP BY 1", '0A000', 'LIKE … ESCAPE is not supported on model tables', 'Escape % and _ with a backslash, the default escape.', 'LIKE'],
    ["SELECT status FROM orders WHERE \"order_items.quantity\" LIKE '1%' GROUP BY 1", '42883', 'operator does not exist: numeric ~~ unknown', 'LIKE applies to string dimensions.', "'1%'"],
    ["SELECT status FROM orders WHERE LOWER(channel) = 'web' GROUP BY 1", '0A000', 'this condition is not supported on model tables', filtersHint, 'LOWER'],
    // what a semantic query has no place for
    ['SELECT * FROM orders', '0A000', 'SELECT * is not supported on model tables', 'Name the columns: dimensions, and measures through MEASURE(name).', '*'],
    ['SELECT status FROM orders, customers GROUP BY 1', '0A000', 'joins between model tables are not supported', joins, 'customers'],
    ['SELECT status FROM orders JOIN customers ON true GROUP BY 1', '0A000', 'joins between model tables are not supported', joins, 'customers'],
    ['SELECT status FROM orders, (SELECT 1) s GROUP BY 1', '0A000', 'a model table cannot be read beside a subquery', 'Read the model table inside the subquery, and the rest outside it: SELECT … FROM (SELECT dimensions, MEASURE(m) FROM table GROUP BY dimensions) AS t.', undefined],
    ['SELECT status FROM orders UNION SELECT channel FROM orders', '0A000', 'UNION is not supported on model tables', 'Run each SELECT on its own.', undefined],
    ['WITH o AS (SELECT 1 AS n) SELECT status FROM orders GROUP BY 1', '0A000', 'WITH is not supported on model tables', 'A query over a model table is SELECT dimensions, MEASURE(m) … FROM table [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT n].', undefined],
    ['SELECT DISTINCT ON (status) status FROM orders', '0A000', 'DISTINCT ON is not supported on model tables', 'Write SELECT DISTINCT, or GROUP BY the columns.', 'status'],
    ['SELECT status FROM orders GROUP BY 1 OFFSET 10', '0A000', 'OFFSET is not supported on model tables', 'Narrow the rows with WHERE, or ask for more of them with LIMIT (at most 50000).', ['10', 'OFFSET']],
    ['SELECT SUM(gross_revenue) * 2 FROM orders', '0A000', 'this expression is not supported on model tables', selectForms, '*'],
    ["SELECT CASE WHEN status = 'x' THEN 1 END FROM orders", '0A000', 'this expression is not supported on model tables', selectForms, 'CASE'],
    ['SELECT status, SUM(gross_revenue) OVER () FROM orders', '0A000', 'window functions are not supported on model tables', selectForms, 'SUM'],
    ['SELECT 1, status FROM orders GROUP BY 2', '0A000', 'this expression is not supported on model tables', selectForms, ['1', 'SELECT']],
    ['SELECT LOWER(status) FROM orders GROUP BY 1', '0A000', 'this expression is not supported on model tables', selectForms, 'LOWER'],
    ['SELECT COALESCE(status, \'-\') FROM orders GROUP BY 1', '0A000', 'this expression is not supported on model tables', selectForms, 'COALESCE'],
    ['SELECT now() FROM orders', '0A000', 'function now() is not supported on model tables', selectForms, 'now'],
    ["SELECT DATE_TRUNC('decade', created_at) FROM orders GROUP BY 1", '0A000', 'date_trunc unit "decade" is not supported on model tables', 'Truncate to one of: second, minute, hour, day, week, month, quarter, year.', "'decade'"],
    ["SELECT DATE_TRUNC('fortnight', created_at) FROM orders GROUP BY 1", '22023', 'unit "fortnight" not recognized for type timestamp without time zone', 'Truncate to one of: second, minute, hour, day, week, month, quarter, year.', "'fortnight'"],
    ["SELECT DATE_TRUNC('month', status) FROM orders GROUP BY 1", '42883', 'function date_trunc(unknown, text) does not exist', 'DATE_TRUNC applies to date and timestamp dimensions.', 'DATE_TRUNC'],
    ['SELECT status::int FROM orders GROUP BY 1', '0A000', 'this cast to int4 is not supported on model tables', selectForms, '::'],
    // Casts PostgreSQL would answer with other values than the model's: refused, not ignored.
    ['SELECT status, SUM(gross_revenue)::int FROM orders GROUP BY 1', '0A000', `this cast to int4 ${changes}`, changing, '::'],
    ['SELECT MEASURE(average_order_value)::numeric(10,1) FROM orders', '0A000', `this cast to numeric ${changes}`, changing, '::'],
    ['SELECT MEASURE(average_order_value)::real FROM orders', '0A000', `this cast to float4 ${changes}`, changing, '::'],
    ['SELECT status FROM orders GROUP BY 1 HAVING MEASURE(average_order_value)::bigint > 5', '0A000', `this cast to int8 ${changes}`, changing, '::'],
    ['SELECT line_total::int FROM order_items GROUP BY 1', '0A000', `this cast to int4 ${changes}`, changing, '::'],
    ['SELECT status::varchar(3) FROM orders GROUP BY 1', '0A000', `this cast to varchar ${changes}`, changing, '::'],
    ["SELECT status FROM orders WHERE status::char = 'c' GROUP BY 1", '0A000', `this cast to bpchar ${changes}`, changing, '::'],
    ['SELECT created_at::timestamp(0) FROM orders GROUP BY 1', '0A000', `this cast to timestamp ${changes}`, changing, '::'],
    // ORDER BY and LIMIT
    ['SELECT status FROM orders GROUP BY 1 ORDER BY 2', '42P10', 'ORDER BY position 2 is not in select list', undefined, ['2', 'ORDER BY']],
    ['SELECT status, MEASURE(order_count) FROM orders GROUP BY 1 ORDER BY channel', '42803', 'column "orders.channel" must appear in the GROUP BY clause or be used in an aggregate function', undefined, 'channel'],
    ['SELECT status FROM orders GROUP BY 1 ORDER BY MEASURE(order_count)', '0A000', 'ORDER BY a column that is not selected is not supported on model tables', 'Order by a selected column: its name, alias or position.', 'MEASURE'],
    ['SELECT status, SUM(gross_revenue) FROM orders GROUP BY 1 ORDER BY SUM(gross_revenue) / 2', '0A000', 'ORDER BY an expression is not supported on model tables', 'Order by a selected column (its name, alias or position), or order an outer query: SELECT * FROM (SELECT …) AS t ORDER BY expression.', '/'],
    ['SELECT status FROM orders GROUP BY 1 ORDER BY status NULLS FIRST', '0A000', 'NULLS FIRST is not supported on model tables', 'Nulls sort last here, in either direction: leave NULLS FIRST out.', 'status NULLS'],
    ['SELECT status AS x, channel AS x FROM orders GROUP BY 1, 2 ORDER BY x', '42702', 'ORDER BY "x" is ambiguous', undefined, ['x', 'ORDER BY']],
    ['SELECT status FROM orders GROUP BY 1 LIMIT 100000', '54000', 'LIMIT 100000 is above the 50000 rows a query may return', 'Ask for at most 50000 rows, and narrow the rest with WHERE.', '100000'],
  ])('%s → %s', (sql, sqlstate, message, hint, token) => {
    const position = typeof token === 'string' ? at(sql, token) : token && at(sql, token[0], token[1]);
    expect(refusal(sql)).toEqual({ sqlstate, message, ...(hint !== undefined ? { hint } : {}), ...(position !== undefined ? { position } : {}) });
  });

  it('counts positions in characters of the statement itself, not of the whole input', () => {
    const sql = "SELECT 'é'; SELECT stätus FROM orders GROUP BY 1";
    const [, statement] = classifyStatements(sql);
    try {
      translateSelect(statement as GovernedStatement, [], tables);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(SqlStateError);
      expect((error as SqlStateError).position).toBe(8);
      expect((error as SqlStateError).message).toBe('column "stätus" does not exist');
      expect(statement!.start + (error as SqlStateError).position!).toBe(sql.indexOf('stätus') + 1);
    }
  });
});
