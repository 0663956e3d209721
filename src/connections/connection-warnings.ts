// What the console shows after a connection test: the role's privileges as flags, and a warning for
// each way the role exceeds reading. The service checks every statement and runs it read-only, but the
// database's own permissions are the last boundary; Metabase and Looker ask for a read-only user for
// the same reason. Here the service can check instead of asking.
import { MYSQL_TIME_ZONE_FIX } from '../core/warehouse/mysql-time-zones.js';
import type { ConnectionInspection, RolePrivileges } from '../core/warehouse/types.js';
import type { Engine } from '../store/schema.js';

export type ConnectionWarningCode = 'superuser' | 'can_write' | 'reads_credentials' | 'reads_server_files' | 'privileges_unknown' | 'time_zone_tables_missing';

export interface ConnectionWarning {
  code: ConnectionWarningCode;
  message: string;
}

export interface PrivilegeFlags {
  superuser: boolean | null;
  can_write: boolean | null;
  reads_credentials: boolean | null;
  reads_server_files: boolean | null;
}

const ADVICE = 'Connect with a read-only role instead (see "Least-privilege warehouse roles" in the operations guide).';

export function privilegeFlags(privileges: RolePrivileges): PrivilegeFlags {
  return {
    superuser: privileges.superuser,
    can_write: privileges.canWrite,
    reads_credentials: privileges.readsCredentials,
    reads_server_files: privileges.readsServerFiles,
  };
}

/** Flags of a role whose privileges could not be read. */
export const UNKNOWN_PRIVILEGES: PrivilegeFlags = { superuser: null, can_write: null, reads_credentials: null, reads_server_files: null };

export function inspectionWarnings(engine: Engine, inspection: ConnectionInspection, timeZone: string): ConnectionWarning[] {
  const warnings = privilegeWarnings(engine, inspection.privileges);
  if (inspection.namedTimeZones === false) {
    warnings.push({
      code: 'time_zone_tables_missing',
      message:
        `The server has no time zone tables: queries grouped or filtered in a named time zone (such as ${timeZone === 'UTC' ? 'Europe/Paris' : timeZone}) ` +
        `are refused until they are loaded, once, on the server: ${MYSQL_TIME_ZONE_FIX}. Queries in UTC work meanwhile.`,
    });
  }
  return warnings;
}

export function unknownPrivilegesWarning(reason: string): ConnectionWarning {
  return { code: 'privileges_unknown', message: `The role's privileges could not be checked (${reason}). Make sure it can only read.` };
}

function privilegeWarnings(engine: Engine, privileges: RolePrivileges): ConnectionWarning[] {
  const who = engine === 'mysql' ? 'The user' : 'The role';
  const examples = (list: readonly string[] | undefined) => (list?.length ? `: ${list.join('; ')}` : '');
  if (privileges.superuser) {
    const what = engine === 'mysql' ? 'has SUPER' : engine === 'snowflake' ? `has administrator rights${examples(privileges.evidence.superuser)}` : 'is a superuser';
    // One warning says it all: a superuser can do everything the others warn about.
    return [
      {
        code: 'superuser',
        message: `${who} ${what}: it bypasses the database's permissions, so it can change data and read password hashes and server files whatever the service checks. ${ADVICE}`,
      },
    ];
  }
  const warnings: ConnectionWarning[] = [];
  if (privileges.canWrite) {
    warnings.push({
      code: 'can_write',
      message: `${who} can change data${examples(privileges.evidence.canWrite)}. The service runs every statement read-only, but the database's permissions are the last boundary: grant SELECT only. ${ADVICE}`,
    });
  }
  if (privileges.readsCredentials) {
    warnings.push({
      code: 'reads_credentials',
      message: `${who} can read password hashes${examples(privileges.evidence.readsCredentials)}. The service refuses those catalogs, but revoke the access. ${ADVICE}`,
    });
  }
  if (privileges.readsServerFiles) {
    const files = engine === 'snowflake' ? 'can read and write files in stages' : 'can read files on the database server';
    warnings.push({ code: 'reads_server_files', message: `${who} ${files}${examples(privileges.evidence.readsServerFiles)}. ${ADVICE}` });
  }
  return warnings;
}
