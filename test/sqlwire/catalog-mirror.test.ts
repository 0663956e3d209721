// The catalog mirror of the demo model answers the catalog statements real clients send (psql's meta-
// commands, pgjdbc's DatabaseMetaData, psqlODBC's SQLColumns, a BI tool's information_schema sync) with
// the demo's tables, columns, types and descriptions; refuses writes and stays as it was built; lets
// connections share it. Timings and memory are printed for the record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { sqlTablesOf, type SqlColumn, type SqlTable } from '../../src/core/sqlapi/tables.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { CatalogError } from '../../src/sqlwire/catalog/catalog-error.js';
import { CatalogMirrors, type CatalogMirror } from '../../src/sqlwire/catalog/catalog-mirror.js';
import { MIRROR_SERVER_VERSION } from '../../src/sqlwire/catalog/mirror-setup.js';
import * as Q from './catalog-client-queries.js';

const DATABASE = 'demo';
let tables: SqlTable[];
let mirrors: CatalogMirrors;
let mirror: CatalogMirror;

beforeAll(async () => {
  tables = sqlTablesOf(compileModel(await readModelDir(DEMO_MODEL_DIR)).model!);
  mirrors = new CatalogMirrors();
  mirror = await mirrors.get('demo', () => ({ tables, database: DATABASE }));
});
afterAll(() => mirrors.close());

type Row = (string | null)[];

async function rows(sql: string, params: (string | null)[] = [], on: CatalogMirror = mirror): Promise<Row[]> {
  const result = await on.run(sql, params);
  return result.rows.map((row) => row.map((value) => (value === null ? null : value.toString('utf8'))));
}

async function rejection(answer: Promise<unknown>): Promise<CatalogError> {
  const error = await answer.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

const refusal = (sql: string, on: CatalogMirror = mirror) => rejection(on.run(sql));

const orders = () => tables.find((t) => t.schema === 'public' && t.name === 'orders')!;

/** How format_type names each kind of column: the mirror's typing rule, stated independently. */
function formatType(column: SqlColumn): string {
  if (column.kind === 'measure') return column.measureType === 'count' || column.measureType === 'count_distinct' ? 'bigint' : 'numeric';
  return { string: 'text', number: 'numeric', boolean: 'boolean', date: 'date', timestamp: 'timestamp without time zone' }[column.type];
}

describe('the session a client sees', () => {
  it('names the project database, the reader role and PostgreSQL 18 with the product', async () => {
    const [[database, user, session, schema, version, serverVersion, versionNum, superuser]] = (await rows(
      "SELECT current_database(), current_user, session_user, current_schema(), version(), current_setting('server_version'), current_setting('server_version_num'), current_setting('is_superuser')",
    )) as [Row];
    expect([database, user, session, schema, superuser]).toEqual([DATABASE, 'reader', 'reader', 'public', 'off']);
    expect(version).toMatch(/^PostgreSQL 18\.\d+ \(Governed Analytics Service\) on /);
    expect(version).toContain(`PostgreSQL ${serverVersion} `);
    expect(serverVersion).toBe(MIRROR_SERVER_VERSION); // what the server reports at start-up
    expect(Number(versionNum)).toBe(180000 + Number(serverVersion!.split('.')[1]));
    const [[pid]] = (await rows('SELECT pg_backend_pid()')) as [Row];
    expect(Number(pid)).toBeGreaterThan(0);
  });

  it('answers with PostgreSQL\'s own column descriptions and text values', async () => {
    const result = await mirror.run("SELECT 1::int4 AS one, 'x'::text AS t, NULL::bool AS nothing, 2.50::numeric AS n");
    expect(result.fields.map((f) => [f.name, f.dataTypeID, f.dataTypeSize, f.format])).toEqual([
      ['one', 23, 4, 'text'],
      ['t', 25, -1, 'text'],
      ['nothing', 16, 1, 'text'],
      ['n', 1700, -1, 'text'],
    ]);
    expect(result.rows).toEqual([[Buffer.from('1'), Buffer.from('x'), null, Buffer.from('2.50')]]);
    expect(result.command).toBe('SELECT 1');
    expect(result.suspended).toBe(false);
  });
});

describe('psql 15', () => {
  it('\\dt lists the tables of the search path (public), owned by postgres', async () => {
    expect(await rows(Q.PSQL_DT)).toEqual(['customers', 'order_items', 'orders', 'products'].map((name) => ['public', name, 'table', 'postgres']));
  });

  it('\\dn lists public and the domain schemas', async () => {
    expect(await rows(Q.PSQL_DN)).toEqual([
      ['commerce', 'postgres'],
      ['public', 'pg_database_owner'],
    ]);
  });

  it('\\l lists the database alone for psql 15 and 16 (daticulocale, datlocale since PostgreSQL 17) as for psql 18', async () => {
    const acl = '=c/postgres\npostgres=CTc/postgres';
    const psql15 = await mirror.run(Q.PSQL15_L);
    expect(psql15.fields.map((f) => f.name)).toEqual(['Name', 'Owner', 'Encoding', 'Collate', 'Ctype', 'ICU Locale', 'Locale Provider', 'Access privileges']);
    expect(await rows(Q.PSQL15_L)).toEqual([[DATABASE, 'postgres', 'UTF8', 'C', 'C.UTF-8', null, 'libc', acl]]);
    expect(await rows(Q.PSQL16_L)).toEqual([[DATABASE, 'postgres', 'UTF8', 'libc', 'C', 'C.UTF-8', null, null, acl]]);
    expect(await rows(Q.PSQL18_L)).toEqual([[DATABASE, 'postgres', 'UTF8', 'libc', 'C', 'C.UTF-8', null, null, acl]]);
    // \dO reads pg_collation.colliculocale, colllocale since PostgreSQL 17: no collation outside pg_catalog.
    expect((await mirror.run(Q.PSQL15_DO)).fields.map((f) => f.name)).toContain('ICU Locale');
  });

  it('errors carry PostgreSQL\'s hint and detail; columns their type modifier', async () => {
    const misspelt = await refusal('SELECT d.datlocal FROM pg_catalog.pg_database d');
    expect([misspelt.sqlstate, misspelt.hint, misspelt.position]).toEqual(['42703', 'Perhaps you meant to reference the column "d.datlocale".', 8]);
    const malformed = await refusal("SELECT '{1,2'::int4[]");
    expect([malformed.sqlstate, malformed.message, malformed.detail]).toEqual(['22P02', 'malformed array literal: "{1,2"', 'Unexpected end of input.']);
    const [field] = (await mirror.run("SELECT 'x'::varchar(5) AS v")).fields;
    expect([field!.dataTypeID, field!.dataTypeSize, field!.dataTypeModifier]).toEqual([1043, -1, 9]);
  });

  it('points an error after a renamed column at the text the client sent', async () => {
    const sql = "SELECT 'é', d.daticulocale, d.nosuch FROM pg_catalog.pg_database d";
    const error = await refusal(sql);
    expect([error.sqlstate, error.message]).toEqual(['42703', 'column d.nosuch does not exist']);
    expect([...sql].slice(error.position! - 1).join('')).toMatch(/^d\.nosuch/);
  });

  it('\\d orders and \\d+ orders describe every column with its type and its comment', async () => {
    const lookup = await rows(Q.PSQL_D_ORDERS_LOOKUP);
    expect(lookup.map(([, schema, name]) => [schema, name])).toEqual([['public', 'orders']]);
    const oid = lookup[0]![0];
    const answers = await Promise.all(Q.PSQL_D_TABLE.map((sql) => rows(sql.replaceAll('{oid}', oid!))));
    // No checks, a plain table without indexes, rules or triggers, permanent, heap.
    expect(answers[0]).toEqual([['0', 'r', 'f', 'f', 'f', 'f', 'f', 'f', 'f', '', '0', '', 'p', 'd', 'heap']]);
    const columns = orders().columns;
    expect(answers[1]!.map(([attname, type, , notnull]) => [attname, type, notnull])).toEqual(columns.map((c) => [c.name, formatType(c), 'f']));
    // Row security, statistics, publications, inheritance, partitions: none.
    expect(answers.slice(2)).toEqual([[], [], [], [], []]);
    const plus = await rows(Q.PSQL_D_PLUS_TABLE[1]!.replaceAll('{oid}', oid!));
    const descriptions = new Map(plus.map((r) => [r[0], r[r.length - 1]]));
    expect(descriptions.get('status')).toBe('Status — completed, pending, cancelled or refunded.');
    expect(descriptions.get('ship_region')).toBe('Region — Region the order ships to.');
    expect(descriptions.get('created_at')).toBe('Ordered at');
    expect(descriptions.get('customers.region')).toBe('Region — Sales region of the customer\'s address.');
    expect(plus).toHaveLength(columns.length);
  });
});

describe('pgjdbc 42.5 DatabaseMetaData', () => {
  it('getTables lists every table of every schema with its description', async () => {
    const expected = tables
      .map((t) => [t.schema, t.name, 'TABLE', t.description])
      .sort((a, b) => (a.join('.') < b.join('.') ? -1 : 1));
    expect((await rows(Q.JDBC_GET_TABLES)).map(([, schema, name, type, remarks]) => [schema, name, type, remarks])).toEqual(expected);
  });

  it('getColumns lists the columns in order with their type OIDs and comments', async () => {
    const answer = await rows(Q.JDBC_GET_COLUMNS);
    const oids: Record<string, string> = { text: '25', numeric: '1700', boolean: '16', date: '1082', 'timestamp without time zone': '1114', bigint: '20' };
    expect(answer.map(([nspname, relname, attname, atttypid, attnotnull]) => [nspname, relname, attname, atttypid, attnotnull])).toEqual(
      orders().columns.map((c) => ['public', 'orders', c.name, oids[formatType(c)], 'f']),
    );
    expect(answer.find((r) => r[2] === 'completed_revenue')![12]).toBe('Completed revenue — Amount paid for completed orders.');
  });

  it('getSchemas, getPrimaryKeys and getTypeInfo', async () => {
    expect(await rows(Q.JDBC_GET_SCHEMAS)).toEqual(['commerce', 'information_schema', 'pg_catalog', 'public'].map((s) => [s, null]));
    const keys = await mirror.run(Q.JDBC_GET_PRIMARY_KEYS);
    expect([keys.fields.map((f) => f.name), keys.rows]).toEqual([['table_cat', 'table_schem', 'table_name', 'column_name', 'key_seq', 'pk_name'], []]);
    const types = new Map((await rows(Q.JDBC_GET_TYPE_INFO)).map(([name, oid]) => [name, oid]));
    expect(['text', 'numeric', 'bool', 'date', 'timestamp', 'int8'].map((t) => types.get(t))).toEqual(['25', '1700', '16', '1082', '1114', '20']);
  });
});

describe('other clients', () => {
  it('psqlODBC\'s SQLColumns reads pg_attribute with type names', async () => {
    const answer = await rows(Q.ODBC_COLUMNS);
    const typnames: Record<string, string> = { text: 'text', numeric: 'numeric', boolean: 'bool', date: 'date', 'timestamp without time zone': 'timestamp', bigint: 'int8' };
    expect(answer.map(([nspname, relname, attname, , typname, attnum]) => [nspname, relname, attname, typname, attnum])).toEqual(
      orders().columns.map((c, i) => ['public', 'orders', c.name, typnames[formatType(c)], String(i + 1)]),
    );
  });

  it('a BI tool\'s sync over information_schema.columns, with a parameter', async () => {
    const answer = await rows(Q.METABASE_STYLE_COLUMNS, ['{public,commerce}']);
    expect(answer).toHaveLength(tables.reduce((n, t) => n + t.columns.length, 0));
    const regionOfCommerceCustomers = answer.find((r) => r[3] === 'commerce' && r[4] === 'customers' && r[0] === 'region')!;
    expect(regionOfCommerceCustomers).toEqual(['region', 'text', '1', 'commerce', 'customers', 'f', 'Region — Sales region of the customer\'s address.', 'f']);
  });

  it('describes a statement without running it: parameter types and columns', async () => {
    const description = await mirror.describe('SELECT c.relname, $1::int4 AS n FROM pg_catalog.pg_class c WHERE c.relnamespace = $2', [0, 26]);
    expect(description.paramTypes).toEqual([23, 26]);
    expect(description.fields!.map((f) => [f.name, f.tableID, f.columnID, f.dataTypeID])).toEqual([
      ['relname', 1259, 2, 19],
      ['n', 0, 0, 23],
    ]);
    expect(await mirror.describe("SELECT pg_catalog.set_config('a.b', 'c', true) WHERE false")).toEqual({ paramTypes: [], fields: [expect.objectContaining({ name: 'set_config', dataTypeID: 25 })] });
    const error = await rejection(mirror.describe('SELECT nothing FROM pg_class'));
    expect([error.sqlstate, error.message, error.position]).toEqual(['42703', 'column "nothing" does not exist', 8]);
  });

  it('stops at maxRows and says more were left', async () => {
    const result = await mirror.run('SELECT relname FROM pg_catalog.pg_class ORDER BY relname', [], { maxRows: 2 });
    expect([result.rows.length, result.suspended, result.command]).toEqual([2, true, '']);
  });
});

describe('the connection\'s settings', () => {
  it('apply to one statement: search_path, DateStyle, extra_float_digits', async () => {
    const settings = { search_path: '"$user", Commerce', DateStyle: 'German, DMY', extra_float_digits: '0' };
    expect((await mirror.run(Q.PSQL_DT, [], { settings })).rows.map((r) => `${r[0]}.${r[1]}`)).toEqual(['commerce.customers', 'commerce.order_items', 'commerce.orders', 'commerce.products']);
    const answer = await mirror.run("SELECT current_setting('search_path'), DATE '2024-03-01', 0.1::float8", [], { settings });
    expect(answer.rows.map((r) => r.map(String))).toEqual([['"$user", commerce', '01.03.2024', '0.1']]);
    expect(await rows("SELECT current_setting('search_path'), DATE '2024-03-01', 0.1::float8")).toEqual([['"$user", public', '2024-03-01', '0.1']]);
    expect((await mirror.describe('SELECT relname FROM pg_class', [], settings)).fields!.map((f) => f.name)).toEqual(['relname']);
  });

  it('are refused as PostgreSQL refuses them for an ordinary role; the identity is not the connection\'s to set', async () => {
    const badValue = await rejection(mirror.run('SELECT 1', [], { settings: { DateStyle: 'nonsense' } }));
    expect([badValue.sqlstate, badValue.message]).toEqual(['22023', 'invalid value for parameter "DateStyle": "nonsense"']);
    const superuserOnly = await rejection(mirror.run('SELECT 1', [], { settings: { temp_file_limit: '10GB' } }));
    expect([superuserOnly.sqlstate, superuserOnly.message]).toEqual(['42501', 'permission denied to set parameter "temp_file_limit"']);
    const identity = await rejection(mirror.run('SELECT 1', [], { settings: { session_authorization: 'postgres' } }));
    expect(identity.sqlstate).toBe('42501');
    expect(await rows('SELECT current_user')).toEqual([['reader']]);
  });
});

describe('a mirror stays as it was built', () => {
  it('refuses writes and definitions, and lists the same tables after them', async () => {
    const before = await rows('SELECT count(*) FROM pg_catalog.pg_class');
    const refused = await Promise.all(
      [
        `INSERT INTO orders (status) VALUES ('x')`,
        'CREATE TABLE public.extra (x int)',
        'DROP TABLE public.orders',
        `COMMENT ON TABLE public.orders IS 'changed'`,
        'SELECT nextval(\'pg_catalog.pg_class\')',
      ].map((sql) => refusal(sql)),
    );
    expect(refused.map((e) => e.sqlstate)).toEqual(['25006', '25006', '25006', '25006', '42809']);
    expect(refused[0]!.message).toBe('cannot execute INSERT in a read-only transaction');
    expect(await rows('SELECT count(*) FROM pg_catalog.pg_class')).toEqual(before);
    expect(await rows(Q.PSQL_DT)).toHaveLength(4);
    expect(await rows(`SELECT obj_description('public.orders'::regclass, 'pg_class')`)).toEqual([[orders().description]]);
  });

  it('keeps nothing a statement leaves in the session: no role change, no advisory lock, no prepared statement', async () => {
    for (const sql of ["SELECT set_config('session_authorization', 'postgres', false)", "SELECT set_config('role', 'postgres', false)"]) {
      expect((await refusal(sql)).message).toBe('permission denied for function set_config');
    }
    expect((await refusal("SELECT pg_catalog.pg_read_file('PG_VERSION')")).sqlstate).toBe('42501');
    expect((await refusal("SELECT query_to_xml('SET SESSION AUTHORIZATION postgres', true, false, '')")).message).toBe('SET is not allowed in a non-volatile function');
    // Twice each: the first time the statement is new to the mirror, the second time it is known.
    for (let i = 0; i < 2; i++) {
      await mirror.run('SELECT pg_advisory_lock(42)');
      expect(await rows("SELECT count(*) FROM pg_catalog.pg_locks WHERE locktype = 'advisory'")).toEqual([['0']]);
      await mirror.run('PREPARE leftover AS SELECT 1');
      expect(await rows('SELECT count(*) FROM pg_catalog.pg_prepared_statements')).toEqual([['0']]);
    }
    // A statement that ends the transaction around it ends it alone: the next one is read-only again.
    expect((await mirror.run('COMMIT')).command).toBe('COMMIT');
    expect((await refusal('CREATE TABLE public.extra (x int)')).sqlstate).toBe('25006');
    expect(await rows('SELECT current_user, session_user')).toEqual([['reader', 'reader']]);
  });

  it('serves concurrent statements, each with its own answer', async () => {
    const [a, b, c, d] = await Promise.all([
      rows('SELECT current_database()'),
      rows("SELECT relname FROM pg_catalog.pg_class WHERE relname = 'orders' ORDER BY relnamespace"),
      refusal('SELECT 1/0'),
      rows('SELECT $1::text || $2::text', ['a', null]),
    ]);
    expect([a, b, c.sqlstate, d]).toEqual([[[DATABASE]], [['orders'], ['orders']], '22012', [[null]]]);
  });
});

describe('the mirrors of a process', () => {
  it('build a mirror once for concurrent first asks; print build time and memory', async () => {
    let builds = 0;
    const contents = () => {
      builds++;
      return { tables, database: 'shop' };
    };
    const [first, second] = await Promise.all([mirrors.get('shop', contents), mirrors.get('shop', contents)]);
    expect([builds, first === second]).toEqual([1, true]);
    expect(await rows('SELECT current_database()', [], first)).toEqual([['shop']]);
    const more: CatalogMirror[] = [];
    for (const key of ['m1', 'm2', 'm3']) more.push(await mirrors.get(key, () => ({ tables, database: key })));
    expect(mirrors.size).toBe(5);
  });
});

describe('memory', () => {
  it('restarts a mirror\'s PostgreSQL after a statement that made it grow past its bound, and answers on', async () => {
    const big = await mirrors.get('big', () => ({ tables, database: 'big' }));
    const [[started]] = (await rows('SELECT pg_catalog.pg_postmaster_start_time()', [], big)) as [Row];
    expect(await rows("SELECT length(repeat('x', 10000000))", [], big)).toEqual([['10000000']]);
    expect(await rows('SELECT pg_catalog.pg_postmaster_start_time()', [], big)).toEqual([[started]]);
    expect(await rows("SELECT length(repeat('x', 200000000))", [], big)).toEqual([['200000000']]);
    const [[restarted]] = (await rows('SELECT pg_catalog.pg_postmaster_start_time()', [], big)) as [Row];
    expect(restarted).not.toBe(started);
    expect(await rows('SELECT current_database()', [], big)).toEqual([['big']]);
  });
});

describe('limits', () => {
  let limited: CatalogMirrors;
  beforeAll(async () => {
    limited = new CatalogMirrors({ maxMirrors: 1, idleMs: 1_000, statementTimeoutMs: 500 });
    // The template first, so that the timings below are a mirror's alone.
    await limited.ready();
  });
  afterAll(() => limited.close());

  it('cancels a statement past its time, and answers the next one', async () => {
    const slow = await limited.get('a', () => ({ tables, database: 'a' }));
    const started = performance.now();
    const error = await refusal('SELECT pg_catalog.pg_sleep(30)', slow);
    expect([error.sqlstate, error.message]).toEqual(['57014', 'canceling statement due to statement timeout']);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await rows('SELECT current_database()', [], slow)).toEqual([['a']]);
  });

  it('closes the least recently used mirror, and an idle one', async () => {
    const a = await limited.get('a', () => ({ tables, database: 'a' }));
    await limited.get('b', () => ({ tables, database: 'b' }));
    expect((await refusal('SELECT 1', a)).sqlstate).toBe('57P01');
    expect(limited.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(limited.size).toBe(0);
  });
});
