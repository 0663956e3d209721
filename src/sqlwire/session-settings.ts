// The settings and transaction state of one SQL connection, and the answers to the statements that
// act on them (SET, SHOW, RESET, BEGIN, COMMIT, ROLLBACK, savepoints, DISCARD, DEALLOCATE, CLOSE).
// Clients send these on connect (JDBC: SET extra_float_digits, application_name) and around their
// queries (BI tools wrap reads in BEGIN … COMMIT): they are answered as PostgreSQL would, with nothing
// behind them to change, since every statement here only reads. Settings a client needs to stay as
// they are (UTF8, ISO dates, read-only) are refused when set otherwise; others are kept and shown.
import type { SessionCommand } from '../core/sqlapi/session-commands.js';
import { ACTIVE_SQL_TRANSACTION, INVALID_CURSOR_NAME, INVALID_PARAMETER_VALUE, IN_FAILED_SQL_TRANSACTION, NO_ACTIVE_SQL_TRANSACTION, READ_ONLY_SQL_TRANSACTION, UNDEFINED_OBJECT, SqlStateError } from '../core/sqlapi/sql-state-error.js';
import { MIRROR_SERVER_VERSION } from './catalog/mirror-setup.js';
import type { FieldDescription, ServerNotice, TransactionStatus } from './protocol/backend-messages.js';
import type { StatementOutcome } from './statements.js';
import { textField } from './type-oids.js';

/** Settings PostgreSQL reports with ParameterStatus when they change. */
const REPORTED = new Set(['application_name', 'client_encoding', 'datestyle', 'intervalstyle', 'timezone', 'standard_conforming_strings', 'is_superuser', 'session_authorization', 'integer_datetimes', 'server_version', 'server_encoding']);
/** How PostgreSQL spells the reported ones. */
const REPORTED_NAMES: Record<string, string> = { datestyle: 'DateStyle', intervalstyle: 'IntervalStyle', timezone: 'TimeZone' };

function defaults(startup: { applicationName: string; user: string; timeZone: string }): Map<string, string> {
  return new Map([
    ['application_name', startup.applicationName],
    ['client_encoding', 'UTF8'],
    ['server_encoding', 'UTF8'],
    ['datestyle', 'ISO, MDY'],
    ['intervalstyle', 'postgres'],
    ['timezone', startup.timeZone],
    ['extra_float_digits', '1'],
    ['search_path', '"$user", public'],
    ['standard_conforming_strings', 'on'],
    ['integer_datetimes', 'on'],
    ['is_superuser', 'off'],
    ['session_authorization', startup.user],
    ['server_version', MIRROR_SERVER_VERSION],
    ['server_version_num', String(Number(MIRROR_SERVER_VERSION.split('.')[0]) * 10_000 + Number(MIRROR_SERVER_VERSION.split('.')[1]))],
    ['max_identifier_length', '63'],
    ['transaction_isolation', 'read committed'],
    ['default_transaction_isolation', 'read committed'],
    ['transaction_read_only', 'on'],
    ['default_transaction_read_only', 'on'],
    ['statement_timeout', '0'],
    ['lock_timeout', '0'],
    ['idle_in_transaction_session_timeout', '0'],
    ['lc_messages', 'C'],
    ['lc_monetary', 'C'],
    ['lc_numeric', 'C'],
    ['lc_time', 'C'],
  ]);
}

const warning = (code: string, message: string): ServerNotice => ({ severity: 'WARNING', code, message });

/** The columns SHOW answers with: the setting's value, or for SHOW ALL each setting's name, value and description. */
export function showFields(name: string): FieldDescription[] {
  return name === 'all' ? [textField('name'), textField('setting'), textField('description')] : [textField(name)];
}

/** A value a client may not change, and why: everything here is UTF-8, ISO-dated and read-only. */
function refusedValue(name: string, value: string): string | undefined {
  const v = value.toLowerCase().replace(/['"]/g, '');
  // SQL_ASCII means no conversion: the bytes go as they are, which for UTF-8 text is UTF-8.
  if (name === 'client_encoding' && !['utf8', 'utf-8', 'unicode', 'sql_ascii'].includes(v)) return 'client_encoding is UTF8 on this server (or SQL_ASCII: no conversion)';
  if (name === 'datestyle' && !v.includes('iso')) return 'DateStyle is ISO on this server';
  if ((name === 'transaction_read_only' || name === 'default_transaction_read_only') && !['on', 'true', '1', 'yes'].includes(v)) return 'transactions here are read-only';
  if (name === 'standard_conforming_strings' && !['on', 'true', '1'].includes(v)) return 'standard_conforming_strings is on on this server';
  return undefined;
}

export class SessionSettings {
  private values: Map<string, string>;
  /** The settings the client changed (SET), which the catalog's answers must follow too. */
  private changed = new Set<string>();
  transaction: TransactionStatus = 'I';

  constructor(private readonly startup: { applicationName: string; user: string; timeZone: string }) {
    this.values = defaults(startup);
  }

  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }

  /** What a catalog statement is to see: the time zone, and whatever the client set (search_path, DateStyle…). */
  forCatalog(): Record<string, string> {
    const settings: Record<string, string> = { timezone: this.values.get('timezone')! };
    for (const name of this.changed) settings[name] = this.values.get(name)!;
    return settings;
  }

  /** A statement failed: inside a transaction block the block is failed until it ends. */
  failed(): void {
    if (this.transaction === 'T') this.transaction = 'E';
  }

  /** In a failed block only its end is accepted, as PostgreSQL does. */
  checkNotFailed(command?: SessionCommand): void {
    if (this.transaction !== 'E') return;
    if (command && ['commit', 'rollback', 'rollbackToSavepoint'].includes(command.type)) return;
    throw new SqlStateError(IN_FAILED_SQL_TRANSACTION, 'current transaction is aborted, commands ignored until end of transaction block', 'Send ROLLBACK.');
  }

  apply(command: SessionCommand): StatementOutcome {
    this.checkNotFailed(command);
    switch (command.type) {
      case 'set':
        return this.set(command.name, command.value);
      case 'reset':
        return this.set(command.name, null, 'RESET');
      case 'resetAll':
        this.values = defaults(this.startup);
        this.changed.clear();
        return { fields: null, rows: [], tag: 'RESET' };
      case 'setTransaction':
        if (command.modes.readOnly === false) throw new SqlStateError(READ_ONLY_SQL_TRANSACTION, 'transactions here are read-only', 'Leave out READ WRITE.');
        return { fields: null, rows: [], tag: 'SET' };
      case 'show':
        return this.show(command.name);
      case 'begin':
        if (command.modes.readOnly === false) throw new SqlStateError(READ_ONLY_SQL_TRANSACTION, 'transactions here are read-only', 'Write BEGIN or BEGIN READ ONLY.');
        if (this.transaction !== 'I') return { fields: null, rows: [], tag: 'BEGIN', notices: [warning('25001', 'there is already a transaction in progress')] };
        this.transaction = 'T';
        return { fields: null, rows: [], tag: 'BEGIN' };
      case 'commit': {
        const wasFailed = this.transaction === 'E';
        const notices = this.transaction === 'I' ? [warning('25P01', 'there is no transaction in progress')] : [];
        this.transaction = command.chain && !wasFailed ? 'T' : 'I';
        return { fields: null, rows: [], tag: wasFailed ? 'ROLLBACK' : 'COMMIT', notices };
      }
      case 'rollback': {
        const notices = this.transaction === 'I' ? [warning('25P01', 'there is no transaction in progress')] : [];
        this.transaction = command.chain ? 'T' : 'I';
        return { fields: null, rows: [], tag: 'ROLLBACK', notices };
      }
      case 'savepoint':
      case 'releaseSavepoint':
      case 'rollbackToSavepoint': {
        const word = { savepoint: 'SAVEPOINT', releaseSavepoint: 'RELEASE SAVEPOINT', rollbackToSavepoint: 'ROLLBACK TO SAVEPOINT' }[command.type];
        if (this.transaction === 'I') throw new SqlStateError(NO_ACTIVE_SQL_TRANSACTION, `${word} can only be used in transaction blocks`);
        if (command.type === 'rollbackToSavepoint') this.transaction = 'T';
        return { fields: null, rows: [], tag: command.type === 'savepoint' ? 'SAVEPOINT' : command.type === 'releaseSavepoint' ? 'RELEASE' : 'ROLLBACK' };
      }
      case 'discard':
        if (command.target === 'all') {
          if (this.transaction !== 'I') throw new SqlStateError(ACTIVE_SQL_TRANSACTION, 'DISCARD ALL cannot run inside a transaction block');
          this.values = defaults(this.startup);
          this.changed.clear();
          return { fields: null, rows: [], tag: 'DISCARD ALL', deallocate: null };
        }
        return { fields: null, rows: [], tag: `DISCARD ${command.target.toUpperCase()}` };
      case 'deallocate':
        return { fields: null, rows: [], tag: command.name === null ? 'DEALLOCATE ALL' : 'DEALLOCATE', deallocate: command.name };
      case 'close':
        if (command.name !== null) throw new SqlStateError(INVALID_CURSOR_NAME, `cursor "${command.name}" does not exist`);
        return { fields: null, rows: [], tag: 'CLOSE CURSOR ALL' };
    }
  }

  private set(name: string, value: string | null, tag = 'SET'): StatementOutcome {
    const next = value ?? defaults(this.startup).get(name) ?? '';
    const refusal = refusedValue(name, next);
    if (refusal) throw new SqlStateError(INVALID_PARAMETER_VALUE, `invalid value for parameter "${name}": "${next}"`, refusal);
    this.values.set(name, next);
    if (value === null) this.changed.delete(name);
    else this.changed.add(name);
    const reported = REPORTED.has(name) ? { [REPORTED_NAMES[name] ?? name]: next } : undefined;
    return { fields: null, rows: [], tag, ...(reported ? { parameterStatus: reported } : {}) };
  }

  private show(name: string): StatementOutcome {
    const fields = showFields(name);
    if (name === 'all') {
      const rows = [...this.values].sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => [Buffer.from(REPORTED_NAMES[n] ?? n), Buffer.from(v), Buffer.from('')]);
      return { fields, rows, tag: `SHOW` };
    }
    const value = this.values.get(name);
    if (value === undefined) throw new SqlStateError(UNDEFINED_OBJECT, `unrecognized configuration parameter "${name}"`);
    return { fields, rows: [[Buffer.from(value)]], tag: 'SHOW' };
  }
}

