// What a catalog mirror's PostgreSQL is made of, beyond the model's tables: how it starts, the
// template every mirror is copied from (made once per process: initdb takes seconds, a copy a fraction
// of one), and what makes one mirror the project's database.
//
// Who is who: PGlite runs PostgreSQL in single-user mode, whose session is always that of the bootstrap
// superuser, `postgres`: it builds the mirror and owns its database and tables. Statements then run as
// `reader` (SET SESSION AUTHORIZATION), a role with no privilege but SELECT on the mirror's tables, so
// that PostgreSQL refuses what it refuses an ordinary user (superuser-only functions, settings,
// replication slots, which would outlive a transaction). A session opened by a superuser may take its
// identity back, which a SELECT could do through set_config('session_authorization', …): set_config is
// not executable by `reader`, and each statement's transaction is rolled back, a SET with it.
// `current_user` and `session_user` answer `reader` for every client: a mirror serves all the
// connections of a project, whatever user name each gave, and a name that changed per statement would
// need a write per statement.
import { PGlite } from '@electric-sql/pglite';
import { PUBLIC_SCHEMA, type SqlTable } from '../../core/sqlapi/tables.js';
import { mirrorSchemaSql, quoteIdentifier, quoteLiteral } from './mirror-schema.js';

/** The role statements run as. */
export const MIRROR_ROLE = 'reader';

/** The product `version()` names, where PGlite names itself (as a distribution names its build). */
export const DEFAULT_PRODUCT = 'Governed Analytics Service';

/**
 * PGlite's start parameters with PostgreSQL's own search_path (PGlite sets `public` alone), and sizes
 * for a database that holds a catalog and no rows: 1 MB of shared buffers (PGlite's default of 128 MB
 * doubled a mirror's memory; catalog queries measured as fast with 1 MB as with 8), temporary files
 * (kept in memory) limited to 64 MB, and WAL segments of 1 MB (initdb's --wal-segsize) rather than 16,
 * few of them kept.
 */
export const MIRROR_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  ...['-c', 'search_path="$user", public'],
  ...['-c', 'shared_buffers=1MB'],
  ...['-c', 'temp_file_limit=64MB'],
  ...['-c', 'min_wal_size=2MB'],
  ...['-c', 'max_wal_size=8MB'],
];

export const MIRROR_INITDB_PARAMS: readonly string[] = ['--wal-segsize=1'];

/**
 * The PostgreSQL version the mirrors run (PGlite's): the server reports it at start-up, since clients
 * pick their catalog queries by it (psql and pgJDBC ask for columns that come and go between versions).
 * A test holds it to what the mirror itself says.
 */
export const MIRROR_SERVER_VERSION = '18.6';

/** The database initdb creates, which each mirror renames to its project's. */
const INITIAL_DATABASE = 'postgres';

/**
 * The template's scripts, each run as one simple query (DROP DATABASE refuses a transaction block).
 * The template databases go: a mirror is one database, the one its clients connect to, and `\l` lists
 * that one alone. `version()` reads as PostgreSQL's with the product in PGlite's place:
 * `PostgreSQL 18.6 (Governed Analytics Service) on wasm32-unknown-emscripten, …`.
 */
export function templateSetup(product: string = DEFAULT_PRODUCT): string[] {
  const version = `regexp_replace(pg_catalog.version(), '^(PostgreSQL \\S+)( \\(PGlite [^)]*\\))?', '\\1 (' || ${quoteLiteral(product)} || ')')`;
  return [
    `UPDATE pg_catalog.pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`,
    'DROP DATABASE template0',
    'DROP DATABASE template1',
    [
      `CREATE ROLE ${quoteIdentifier(MIRROR_ROLE)}`,
      `REVOKE TEMPORARY ON DATABASE ${quoteIdentifier(INITIAL_DATABASE)} FROM PUBLIC`,
      'REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC',
      `DO $version$ BEGIN EXECUTE format('CREATE OR REPLACE FUNCTION pg_catalog.version() RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS %L', format('SELECT %L::text', ${version})); END $version$`,
    ].join(';\n'),
    'CHECKPOINT',
  ];
}

/**
 * One mirror's scripts: the database renamed to the project's (PGlite connects to the database it is
 * started with, which must exist: renaming the one it started in spares a second start; ALTER DATABASE
 * refuses to rename the current database only for the sake of other sessions, and single-user mode has
 * none), the tables, SELECT on them for the role, and the session handed to the role.
 */
export function mirrorSetup(tables: readonly SqlTable[], database: string): string[] {
  const schemas = [...new Set([PUBLIC_SCHEMA, ...tables.map((t) => t.schema)])].map(quoteIdentifier);
  const role = quoteIdentifier(MIRROR_ROLE);
  return [
    `UPDATE pg_catalog.pg_database SET datname = ${quoteLiteral(database)} WHERE datname = pg_catalog.current_database()`,
    [
      mirrorSchemaSql(tables),
      `GRANT USAGE ON SCHEMA ${schemas.join(', ')} TO ${role};\n`,
      `GRANT SELECT ON ALL TABLES IN SCHEMA ${schemas.join(', ')} TO ${role};\n`,
    ].join(''),
    `SET SESSION AUTHORIZATION ${role}`,
  ];
}
