// Statements the session answers itself, without a query: settings, transactions and the cleanup
// drivers and pools send. Accepted (parsed here, acted on by the session):
// - SET [SESSION | LOCAL] name {TO | =} value[, …] | DEFAULT; SET TIME ZONE value | LOCAL | DEFAULT;
//   SET NAMES; SET [SESSION CHARACTERISTICS AS] TRANSACTION modes (JDBC, psqlODBC); RESET name | ALL;
// - SHOW name | ALL (SHOW TIME ZONE, SHOW TRANSACTION ISOLATION LEVEL as PostgreSQL names them);
// - BEGIN / START TRANSACTION [modes], COMMIT / END [AND CHAIN], ROLLBACK / ABORT [AND CHAIN], and
//   SAVEPOINT, RELEASE, ROLLBACK TO (JDBC's autosave wraps statements in savepoints): every statement
//   of this interface reads, so a transaction is bookkeeping only, and READ WRITE is recorded rather
//   than refused (a driver sends it when it resets a connection; writes are refused one by one);
// - DISCARD ALL | PLANS | SEQUENCES | TEMP (pools reset connections with DISCARD ALL), DEALLOCATE
//   [PREPARE] name | ALL, CLOSE cursor | ALL.
// Refused (0A000): SET … FROM CURRENT, SET TRANSACTION SNAPSHOT, SET TIME ZONE INTERVAL, two-phase
// commit (PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED); LISTEN, UNLISTEN and the other statements
// are refused by the classifier.
import type { Node, TransactionStmt, VariableSetStmt } from 'libpg-query';
import { nodeAs } from './pg-ast.js';
import { FEATURE_NOT_SUPPORTED, SqlStateError } from './sql-state-error.js';

export interface TransactionModes {
  isolation?: string;
  readOnly?: boolean;
  deferrable?: boolean;
}

export type SessionCommand =
  /** `value` null: DEFAULT (SET TIME ZONE LOCAL too). Names are lower case, as PostgreSQL folds them. */
  | { type: 'set'; name: string; value: string | null; local: boolean }
  | { type: 'setTransaction'; scope: 'transaction' | 'session'; modes: TransactionModes }
  | { type: 'reset'; name: string }
  | { type: 'resetAll' }
  /** `name` is `all` for SHOW ALL. */
  | { type: 'show'; name: string }
  | { type: 'begin'; modes: TransactionModes }
  | { type: 'commit'; chain: boolean }
  | { type: 'rollback'; chain: boolean }
  | { type: 'savepoint'; name: string }
  | { type: 'releaseSavepoint'; name: string }
  | { type: 'rollbackToSavepoint'; name: string }
  | { type: 'discard'; target: 'all' | 'plans' | 'sequences' | 'temp' }
  /** `name` null: DEALLOCATE ALL. */
  | { type: 'deallocate'; name: string | null }
  /** `name` null: CLOSE ALL. */
  | { type: 'close'; name: string | null };

function refuse(what: string, hint?: string): never {
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${what} is not supported`, hint);
}

/** The session command a statement is, or undefined when it is not one of the session's statements. */
export function sessionCommandOf(stmt: Node): SessionCommand | undefined {
  const set = nodeAs(stmt, 'VariableSetStmt');
  if (set) return setCommand(set);
  const show = nodeAs(stmt, 'VariableShowStmt');
  if (show) return { type: 'show', name: (show.name ?? 'all').toLowerCase() };
  const transaction = nodeAs(stmt, 'TransactionStmt');
  if (transaction) return transactionCommand(transaction);
  const discard = nodeAs(stmt, 'DiscardStmt');
  if (discard) return { type: 'discard', target: (discard.target ?? 'DISCARD_ALL').replace('DISCARD_', '').toLowerCase() as 'all' };
  const deallocate = nodeAs(stmt, 'DeallocateStmt');
  if (deallocate) return { type: 'deallocate', name: deallocate.isall || deallocate.name === undefined ? null : deallocate.name };
  const close = nodeAs(stmt, 'ClosePortalStmt');
  if (close) return { type: 'close', name: close.portalname ?? null };
  return undefined;
}

function setCommand(set: VariableSetStmt): SessionCommand {
  const name = (set.name ?? '').toLowerCase();
  const local = set.is_local === true;
  switch (set.kind) {
    case 'VAR_SET_VALUE':
      return { type: 'set', name, value: (set.args ?? []).map((arg) => settingValue(arg, name)).join(', '), local };
    case 'VAR_SET_DEFAULT':
      return { type: 'set', name, value: null, local };
    case 'VAR_RESET':
      return { type: 'reset', name };
    case 'VAR_RESET_ALL':
      return { type: 'resetAll' };
    case 'VAR_SET_MULTI':
      if (set.name === 'TRANSACTION' || set.name === 'SESSION CHARACTERISTICS') {
        return { type: 'setTransaction', scope: set.name === 'TRANSACTION' ? 'transaction' : 'session', modes: transactionModes(set.args) };
      }
      return refuse(`SET ${set.name ?? ''}`);
    default:
      return refuse('SET … FROM CURRENT');
  }
}

/** A SET value as PostgreSQL keeps it: the text of a string, number or identifier. */
function settingValue(arg: Node, name: string): string {
  const constant = nodeAs(arg, 'A_Const');
  if (constant?.sval) return constant.sval.sval ?? '';
  if (constant?.ival) return String(constant.ival.ival ?? 0);
  if (constant?.fval) return constant.fval.fval ?? '0';
  if (constant?.boolval) return constant.boolval.boolval ? 'on' : 'off';
  if (name === 'timezone') return refuse('SET TIME ZONE INTERVAL', "Write SET TIME ZONE 'Europe/Paris' or SET TIME ZONE '+02:00'.");
  return refuse(`this value of SET ${name}`);
}

function transactionModes(options: readonly Node[] | undefined): TransactionModes {
  const modes: TransactionModes = {};
  for (const option of options ?? []) {
    const def = nodeAs(option, 'DefElem');
    const value = nodeAs(def?.arg, 'A_Const');
    if (def?.defname === 'transaction_isolation') modes.isolation = value?.sval?.sval ?? 'read committed';
    if (def?.defname === 'transaction_read_only') modes.readOnly = (value?.ival?.ival ?? 0) !== 0;
    if (def?.defname === 'transaction_deferrable') modes.deferrable = (value?.ival?.ival ?? 0) !== 0;
  }
  return modes;
}

function transactionCommand(stmt: TransactionStmt): SessionCommand {
  const chain = stmt.chain === true;
  switch (stmt.kind) {
    case 'TRANS_STMT_BEGIN':
    case 'TRANS_STMT_START':
      return { type: 'begin', modes: transactionModes(stmt.options) };
    case 'TRANS_STMT_COMMIT':
      return { type: 'commit', chain };
    case 'TRANS_STMT_ROLLBACK':
      return { type: 'rollback', chain };
    case 'TRANS_STMT_SAVEPOINT':
      return { type: 'savepoint', name: stmt.savepoint_name ?? '' };
    case 'TRANS_STMT_RELEASE':
      return { type: 'releaseSavepoint', name: stmt.savepoint_name ?? '' };
    case 'TRANS_STMT_ROLLBACK_TO':
      return { type: 'rollbackToSavepoint', name: stmt.savepoint_name ?? '' };
    default:
      return refuse('two-phase commit', 'Transactions here are read-only: BEGIN, COMMIT and ROLLBACK are accepted.');
  }
}
