// The messages a catalog statement is sent to a mirror's PostgreSQL as, and the reading of its answer.
// A client's statement goes as the extended protocol sends it (Parse, Bind, Describe, Execute, Sync),
// inside a read-only transaction that is always rolled back, followed by the reset of whatever a
// statement can leave in the session beyond its transaction (advisory locks, prepared statements,
// settings): each run finds the mirror as the one before it found it, whatever other connection sent
// it. The messages go in one exchange, so the statement costs one crossing to the mirror's thread, and
// the reset is one Query: each Query is a round of PostgreSQL's command loop (about 0.2 ms in PGlite).
//
// The messages are written with the serializer PGlite ships (pg-protocol's, as `pg` uses it); the
// answer is read by backend-reader.ts: its rows are the text values PostgreSQL sent, kept as bytes.
import { protocol } from '@electric-sql/pglite';
import type { FieldDescription as WireField } from '../protocol/backend-messages.js';
import { backendMessages, type BackendField, type BackendMessage, type ErrorFields } from './backend-reader.js';
import { CATALOG_SQLSTATE, CatalogError } from './catalog-error.js';
import { settingsSql } from './statement-settings.js';

const { serialize } = protocol;

/** A result column as RowDescription describes it; PostgreSQL's answers here are all in text format. */
export interface FieldDescription extends WireField {
  readonly format: 'text';
}

export interface CatalogResult {
  readonly fields: FieldDescription[];
  /** Each value in PostgreSQL's text format, exactly the bytes it sends; null for NULL. */
  readonly rows: (Buffer | null)[][];
  /** The CommandComplete tag (`SELECT 3`); empty for an empty statement and when `suspended`. */
  readonly command: string;
  /** True when `maxRows` rows were sent and more were left (PortalSuspended instead of CommandComplete). */
  readonly suspended: boolean;
}

export interface StatementDescription {
  /** The type OID of each `$n`, as ParameterDescription gives them. */
  readonly paramTypes: number[];
  /** The result's columns, or null for a statement without rows (NoData). */
  readonly fields: FieldDescription[] | null;
}

/** The connection's settings a statement is to see: name → value as SHOW shows it (session-settings.ts). */
export type SessionSettings = Readonly<Record<string, string>>;

export interface RunOptions {
  /** Type OIDs of the parameters as the client's Parse gave them (0 or absent: PostgreSQL infers). */
  readonly paramTypes?: readonly number[];
  /** At most this many rows (Execute's row limit); 0 or absent for all. */
  readonly maxRows?: number;
  readonly settings?: SessionSettings;
  /** What the statement can have left in the session (statement-analysis.ts); `session` when unknown. */
  readonly leaves?: StatementLeaves;
}

/**
 * What a statement can leave behind: its transaction only, or session state too. Only volatile
 * functions take session-level advisory locks (pg_advisory_lock…) or run SQL that could PREPARE
 * (query_to_xml…); a statement calling none leaves nothing that ROLLBACK does not end.
 */
export type StatementLeaves = 'transaction' | 'session';

/** Ends the read-only transaction and resets what outlives one: the session is as it was before. */
const SESSION_RESET: Record<StatementLeaves, string> = {
  transaction: 'ROLLBACK',
  session: 'ROLLBACK; SELECT pg_catalog.pg_advisory_unlock_all(); DEALLOCATE ALL',
};

function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The statement's messages (ending with Sync) in the read-only transaction, then the reset. */
function enveloped(statement: readonly Uint8Array[], settings: SessionSettings = {}, leaves: StatementLeaves = 'session'): Uint8Array {
  const begin = ['BEGIN READ ONLY', settingsSql(settings)].filter(Boolean).join('; ');
  return joined([serialize.query(begin), ...statement, serialize.query(SESSION_RESET[leaves])]);
}

/** The messages of one run. */
export function runRequest(sql: string, params: readonly (string | null)[], options: RunOptions = {}): Uint8Array {
  return enveloped(
    [
      serialize.parse({ text: sql, types: [...(options.paramTypes ?? [])] }),
      serialize.bind({ values: [...params] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({ rows: options.maxRows ?? 0 }),
      serialize.sync(),
    ],
    options.settings,
    options.leaves,
  );
}

/** The messages of a description: Parse and Describe of the statement, which run nothing (and so leave nothing). */
export function describeRequest(sql: string, paramTypes: readonly number[] = [], settings?: SessionSettings): Uint8Array {
  return enveloped([serialize.parse({ text: sql, types: [...paramTypes] }), serialize.describe({ type: 'S' }), serialize.sync()], settings, 'transaction');
}

/**
 * The statement's messages from an enveloped answer. An error while the settings were set is the
 * client's (a value PostgreSQL refuses); a failure of the reset is the mirror's own (XX000), and
 * leaves its session in doubt.
 */
function statementMessages(bytes: Uint8Array): BackendMessage[] {
  let all: BackendMessage[];
  try {
    all = backendMessages(bytes);
  } catch {
    throw mirrorFailure('answer', undefined);
  }
  const parts: BackendMessage[][] = [[]];
  for (const message of all) {
    parts[parts.length - 1]!.push(message);
    if (message.kind === 'ready') parts.push([]);
  }
  const [begin, statement, ...reset] = parts.slice(0, -1);
  if (!statement || reset.length !== 1) throw mirrorFailure('answer', undefined);
  const settingError = errorIn(begin!);
  if (settingError) throw catalogErrorOf(settingError);
  const resetError = errorIn(reset[0]!);
  if (resetError) throw mirrorFailure('reset its session', resetError);
  return statement;
}

function errorIn(messages: readonly BackendMessage[]): ErrorFields | undefined {
  for (const message of messages) if (message.kind === 'error') return message.fields;
  return undefined;
}

function catalogErrorOf(error: ErrorFields): CatalogError {
  const position = error.P === undefined ? undefined : Number(error.P);
  return new CatalogError(error.C ?? CATALOG_SQLSTATE.INTERNAL_ERROR, error.M ?? '', error.H, position, error.D);
}

function mirrorFailure(what: string, error: ErrorFields | undefined): CatalogError {
  const said = error?.M === undefined ? '' : `: ${error.M}`;
  return new CatalogError(CATALOG_SQLSTATE.INTERNAL_ERROR, `the catalog mirror failed to ${what}${said}`);
}

function fieldsOf(fields: readonly BackendField[]): FieldDescription[] {
  return fields.map((f) => ({ ...f, format: 'text' }));
}

/** The statement's result from a run's answer, or its error as PostgreSQL said it. */
export function readRunAnswer(bytes: Uint8Array): CatalogResult {
  let fields: FieldDescription[] = [];
  const rows: (Buffer | null)[][] = [];
  let command = '';
  let suspended = false;
  for (const message of statementMessages(bytes)) {
    switch (message.kind) {
      case 'error':
        throw catalogErrorOf(message.fields);
      case 'fields':
        fields = fieldsOf(message.fields);
        break;
      case 'row':
        rows.push(message.values);
        break;
      case 'complete':
        command = message.tag;
        break;
      case 'suspended':
        suspended = true;
        break;
      case 'copy':
        throw new CatalogError('0A000', 'COPY is not supported on catalog relations here');
    }
  }
  return { fields, rows, command, suspended };
}

/** The parameter types and result columns from a description's answer, or the statement's error. */
export function readDescribeAnswer(bytes: Uint8Array): StatementDescription {
  let paramTypes: number[] = [];
  let fields: FieldDescription[] | null = null;
  for (const message of statementMessages(bytes)) {
    if (message.kind === 'error') throw catalogErrorOf(message.fields);
    if (message.kind === 'parameters') paramTypes = message.types;
    else if (message.kind === 'fields') fields = fieldsOf(message.fields);
  }
  return { paramTypes, fields };
}
