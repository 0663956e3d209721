// What a Snowflake role can do beyond reading, from `SHOW GRANTS TO ROLE` (rows: privilege, granted_on,
// name, …). Only the role's direct grants are read; a role it inherits counts by name when it is one of
// the administrator roles, whose reach needs no listing. Snowflake never shows password hashes, so
// reading credentials is always false; files outside tables live in stages.
import type { RolePrivileges, WarehouseRow } from './types.js';

/** Administrator roles: a role that is, or inherits, one of them can reach and change everything. */
const ADMIN_ROLES = new Set(['ACCOUNTADMIN', 'ORGADMIN', 'SECURITYADMIN', 'SYSADMIN']);
const WRITE_PRIVILEGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'OWNERSHIP']);
const EXAMPLES = 4;

/** The statement listing a role's grants; the role name is quoted as an identifier. */
export function snowflakeGrantsSql(role: string): string {
  return `SHOW GRANTS TO ROLE "${role.replaceAll('"', '""')}"`;
}

export function snowflakePrivileges(role: string, grants: readonly WarehouseRow[]): RolePrivileges {
  const rows = grants.map((g) => ({
    privilege: String(g.privilege ?? '').toUpperCase(),
    on: String(g.granted_on ?? '').toUpperCase(),
    name: String(g.name ?? ''),
  }));
  const line = (r: { privilege: string; on: string; name: string }) => `${r.privilege} on ${r.on.toLowerCase()} ${r.name}`;
  const inherited = rows.filter((r) => r.on === 'ROLE' && r.privilege === 'USAGE' && ADMIN_ROLES.has(r.name.toUpperCase())).map((r) => r.name.toUpperCase());
  const manageGrants = rows.filter((r) => r.privilege === 'MANAGE GRANTS');
  const superuser = [
    ...(ADMIN_ROLES.has(role.toUpperCase()) ? [`is ${role.toUpperCase()}`] : []),
    ...inherited.map((name) => `inherits ${name}`),
    ...manageGrants.map(line),
  ];
  const writes = rows.filter((r) => WRITE_PRIVILEGES.has(r.privilege) || r.privilege.startsWith('CREATE ')).map(line);
  const stages = rows.filter((r) => r.on === 'STAGE' || (r.on === 'INTEGRATION' && r.privilege === 'USAGE')).map(line);
  const isSuper = superuser.length > 0;
  return {
    superuser: isSuper,
    canWrite: isSuper || writes.length > 0,
    readsCredentials: false,
    readsServerFiles: isSuper || stages.length > 0,
    evidence: {
      ...(isSuper ? { superuser: superuser.slice(0, EXAMPLES) } : {}),
      ...(writes.length ? { canWrite: writes.slice(0, EXAMPLES) } : {}),
      ...(stages.length ? { readsServerFiles: stages.slice(0, EXAMPLES) } : {}),
    },
  };
}
