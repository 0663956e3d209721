// What a PostgreSQL role can do beyond reading, from the server's own privilege functions (which count
// inherited roles and answer true for a superuser): one row per finding, a few per kind.
import type { RolePrivileges, WarehouseRow } from './types.js';

/** Rows (finding, detail); finding is superuser, can_write, reads_credentials or reads_server_files. */
export const POSTGRES_PRIVILEGES_SQL = `
  with user_schema as (
    select n.oid, n.nspname from pg_catalog.pg_namespace n
    where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_(toast|temp_)'
  ), writable_table as (
    select pg_catalog.quote_ident(s.nspname) || '.' || pg_catalog.quote_ident(c.relname) as object,
           pg_catalog.array_to_string(array(
             select p from pg_catalog.unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
             where pg_catalog.has_table_privilege(c.oid, p)), ', ') as privileges
    from pg_catalog.pg_class c join user_schema s on s.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'v', 'f')
  )
  (select 'superuser' as finding, 'superuser' as detail from pg_catalog.pg_roles where rolname = current_user and rolsuper)
  union all
  (select 'can_write', privileges || ' on ' || object from writable_table where privileges <> '' order by object limit 4)
  union all
  (select 'can_write', 'CREATE on schema ' || pg_catalog.quote_ident(nspname) from user_schema
   where pg_catalog.has_schema_privilege(oid, 'CREATE') order by nspname limit 4)
  union all
  (select 'can_write', 'CREATE on database ' || pg_catalog.quote_ident(pg_catalog.current_database())
   where pg_catalog.has_database_privilege(pg_catalog.current_database(), 'CREATE'))
  union all
  (select 'can_write', 'member of ' || rolname from pg_catalog.pg_roles
   where rolname in ('pg_write_all_data', 'pg_write_server_files', 'pg_execute_server_program') and pg_catalog.pg_has_role(oid, 'MEMBER'))
  union all
  (select 'reads_credentials', 'SELECT on pg_catalog.' || name from (values ('pg_authid'), ('pg_shadow'), ('pg_user_mapping')) v(name)
   where pg_catalog.has_table_privilege('pg_catalog.' || name, 'SELECT'))
  union all
  (select 'reads_server_files', 'member of ' || rolname from pg_catalog.pg_roles
   where rolname = 'pg_read_server_files' and pg_catalog.pg_has_role(oid, 'MEMBER'))
  union all
  (select 'reads_server_files', 'EXECUTE on ' || signature
   from (values ('pg_read_file(text)'), ('pg_read_binary_file(text)'), ('lo_import(text)')) v(signature)
   where pg_catalog.to_regprocedure('pg_catalog.' || signature) is not null
     and pg_catalog.has_function_privilege(pg_catalog.to_regprocedure('pg_catalog.' || signature), 'EXECUTE'))`;

export function postgresPrivileges(rows: readonly WarehouseRow[]): RolePrivileges {
  const details = (finding: string) => rows.filter((row) => row.finding === finding).map((row) => String(row.detail));
  const superuser = details('superuser').length > 0;
  const writes = details('can_write');
  const credentials = details('reads_credentials');
  const files = details('reads_server_files');
  return {
    superuser,
    canWrite: superuser || writes.length > 0,
    readsCredentials: superuser || credentials.length > 0,
    readsServerFiles: superuser || files.length > 0,
    evidence: {
      ...(superuser ? { superuser: ['superuser'] } : {}),
      ...(writes.length ? { canWrite: writes } : {}),
      ...(credentials.length ? { readsCredentials: credentials } : {}),
      ...(files.length ? { readsServerFiles: files } : {}),
    },
  };
}
