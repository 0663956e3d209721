// What a MySQL/MariaDB user can do beyond reading: its own privileges at every level (global, schema,
// table, column) from information_schema, which shows users their own grants only (so any user can
// read it) but not those of its roles; and SHOW GRANTS, whose lines include the grants of the role
// enabled in the session (MariaDB's default role). Only privilege names and objects are taken from
// those lines: they also carry the user's password hash.
import type { RolePrivileges, WarehouseRow } from './types.js';

/** (privilege, object) pairs: `INSERT`, `shop.orders`; objects are `*.*`, `db.*`, `db.table`, `db.table(column)`. */
export const MYSQL_PRIVILEGES_SQL = `
  WITH me AS (
    SELECT CONCAT('''', SUBSTRING(CURRENT_USER(), 1, CHAR_LENGTH(CURRENT_USER()) - CHAR_LENGTH(SUBSTRING_INDEX(CURRENT_USER(), '@', -1)) - 1),
                  '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''') AS grantee
  ), grants AS (
    SELECT GRANTEE AS grantee, PRIVILEGE_TYPE AS privilege, '*.*' AS object FROM information_schema.USER_PRIVILEGES
    UNION ALL SELECT GRANTEE, PRIVILEGE_TYPE, CONCAT(TABLE_SCHEMA, '.*') FROM information_schema.SCHEMA_PRIVILEGES
    UNION ALL SELECT GRANTEE, PRIVILEGE_TYPE, CONCAT(TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLE_PRIVILEGES
    UNION ALL SELECT GRANTEE, PRIVILEGE_TYPE, CONCAT(TABLE_SCHEMA, '.', TABLE_NAME, '(', COLUMN_NAME, ')') FROM information_schema.COLUMN_PRIVILEGES
  )
  SELECT g.privilege, g.object FROM grants g WHERE g.grantee IN (SELECT grantee FROM me)`;

export const MYSQL_GRANTS_SQL = 'SHOW GRANTS';

interface Grant {
  privilege: string;
  object: string;
}

/** `GRANT SELECT, UPDATE (a, b) ON \`shop\`.* TO …` → (SELECT, shop.*), (UPDATE, shop.*(a, b)). Other lines: nothing. */
export function parseGrantLine(line: string): Grant[] {
  const match = /^GRANT (.+?) ON (?:(?:TABLE|FUNCTION|PROCEDURE|PACKAGE(?: BODY)?) )?(\S+) TO /i.exec(line);
  if (!match) return [];
  const object = match[2]!.replaceAll('`', '');
  const grants: Grant[] = [];
  // Commas inside a column list belong to it.
  for (const part of match[1]!.split(/,(?![^(]*\))/)) {
    const privilege = /^\s*([A-Z ]+?)\s*(\(.*\))?\s*$/i.exec(part);
    if (!privilege) continue;
    const columns = privilege[2]?.replaceAll('`', '');
    grants.push({ privilege: privilege[1]!.toUpperCase(), object: columns ? `${object}${columns}` : object });
  }
  return grants;
}

/** Privileges that change data or objects; CREATE TEMPORARY TABLES and LOCK TABLES do not. */
const WRITES = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'INDEX', 'CREATE VIEW', 'TRIGGER', 'EVENT',
  'CREATE ROUTINE', 'ALTER ROUTINE', 'DELETE HISTORY',
]);
/** Where password hashes are kept (mysql.user is a view over mysql.global_priv on MariaDB 10.4+). */
const CREDENTIAL_TABLES = /^mysql\.(user|global_priv)(\(|$)/i;
/** Examples kept per finding: enough to act on, short enough to read. */
const EXAMPLES = 4;

/** From the rows of MYSQL_PRIVILEGES_SQL and the lines of SHOW GRANTS. */
export function mysqlPrivileges(rows: readonly WarehouseRow[], grantLines: readonly string[]): RolePrivileges {
  const grants = [
    ...rows.map((row) => ({ privilege: String(row.privilege).toUpperCase(), object: String(row.object) })),
    ...grantLines.flatMap(parseGrantLine),
  ].flatMap(expandAll);
  const global = (privilege: string) => grants.some((g) => g.object === '*.*' && g.privilege === privilege);
  const superuser = global('SUPER');
  const writes = describe(grants.filter((g) => WRITES.has(g.privilege)));
  const credentialReads = describe(
    grants.filter((g) => g.privilege === 'SELECT' && (g.object === '*.*' || g.object.toLowerCase() === 'mysql.*' || CREDENTIAL_TABLES.test(g.object))),
  );
  const files = global('FILE');
  return {
    superuser,
    canWrite: writes.length > 0,
    readsCredentials: credentialReads.length > 0,
    readsServerFiles: files,
    evidence: {
      ...(superuser ? { superuser: ['SUPER on *.*'] } : {}),
      ...(writes.length ? { canWrite: writes } : {}),
      ...(credentialReads.length ? { readsCredentials: credentialReads } : {}),
      ...(files ? { readsServerFiles: ['FILE on *.*'] } : {}),
    },
  };
}

/** `ALL PRIVILEGES` as SHOW GRANTS writes it means every privilege at its level. */
function expandAll(grant: Grant): Grant[] {
  if (grant.privilege !== 'ALL' && grant.privilege !== 'ALL PRIVILEGES') return [grant];
  const every = ['SELECT', ...WRITES, ...(grant.object === '*.*' ? ['SUPER', 'FILE'] : [])];
  return every.map((privilege) => ({ privilege, object: grant.object }));
}

/** `INSERT, UPDATE on shop.orders`, one line per object, the broadest objects first. */
function describe(grants: readonly Grant[]): string[] {
  const byObject = new Map<string, string[]>();
  for (const { privilege, object } of grants) {
    const list = byObject.get(object) ?? [];
    if (!list.includes(privilege)) list.push(privilege);
    byObject.set(object, list);
  }
  const breadth = (object: string) => (object === '*.*' ? 0 : object.endsWith('.*') ? 1 : 2);
  return [...byObject.entries()]
    .sort(([a], [b]) => breadth(a) - breadth(b) || a.localeCompare(b))
    .slice(0, EXAMPLES)
    .map(([object, privileges]) => `${privileges.slice(0, EXAMPLES).join(', ')}${privileges.length > EXAMPLES ? ', …' : ''} on ${object}`);
}
