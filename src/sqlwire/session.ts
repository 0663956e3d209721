// The query phase of one connection: the simple protocol (Query: statements run in order, each answered
// with its rows and CommandComplete) and the extended one (Parse/Bind/Describe/Execute/Sync, named and
// unnamed statements and portals, Execute with a row count that suspends the portal). After an error in
// the extended protocol every message up to Sync is skipped, as PostgreSQL does, so a pipelining client
// (JDBC, pg) reads one error and one ReadyForQuery. Values go out in text format only; a request for
// binary results is refused at Bind, which clients fall back from.
import {
  bindComplete,
  closeComplete,
  commandComplete,
  copyData,
  copyDone,
  copyOutResponse,
  dataRow,
  emptyQueryResponse,
  errorResponse,
  type MessageWriter,
  noData,
  noticeResponse,
  parameterDescription,
  parameterStatus,
  parseComplete,
  portalSuspended,
  readyForQuery,
  rowDescription,
} from './protocol/backend-messages.js';
import {
  DUPLICATE_CURSOR,
  DUPLICATE_PREPARED_STATEMENT,
  FEATURE_NOT_SUPPORTED,
  INVALID_CURSOR_NAME,
  INVALID_SQL_STATEMENT_NAME,
  PROGRAM_LIMIT_EXCEEDED,
  PROTOCOL_VIOLATION,
  SqlStateError,
} from '../core/sqlapi/sql-state-error.js';
import { binaryDecoder, binaryEncoder } from './protocol/binary-values.js';
import type { FrontendMessage } from './protocol/frontend-messages.js';
import { copyLine } from './copy-format.js';
import { isSqlStateLike, type PreparedStatement, type StatementHandler, type StatementOutcome } from './statements.js';

/** Bytes an answer may gather before they are sent without waiting for its end. */
const FLUSH_BYTES = 64 * 1024;

/** Prepared statements a connection may keep at once: more is a client leaking them. */
export const MAX_PREPARED_STATEMENTS = 1000;

interface Portal {
  readonly statement: PreparedStatement;
  readonly params: ReadonlyArray<string | null>;
  /** Each result column's format code (0 text, 1 binary), and the converters of the binary ones. */
  readonly formats: readonly number[];
  readonly encoders: ReadonlyArray<((value: Buffer) => Buffer) | undefined>;
  /** The outcome once run; rows already sent are dropped from its front. */
  outcome?: StatementOutcome;
  sent: number;
}

/** Bind's format codes: none (all text), one (for all), or one per value. */
function formatAt(codes: readonly number[], index: number): number {
  return codes.length === 0 ? 0 : codes.length === 1 ? codes[0]! : (codes[index] ?? 0);
}

/** A parameter as text, whatever format it came in (binary for the types binary-values.ts reads). */
function paramText(value: Buffer | null, format: number, typeOid: number): string | null {
  if (value === null) return null;
  if (format === 0) return value.toString('utf8');
  const decode = binaryDecoder(typeOid);
  if (!decode) throw new SqlStateError(FEATURE_NOT_SUPPORTED, `binary format is not supported for parameters of type ${typeOid}`, 'Send this parameter in text format.');
  return decode(value);
}

/** The result formats a Bind asks for, checked against the statement's columns: binary only where this server writes it. */
function resultFormats(statement: PreparedStatement, codes: readonly number[]): Pick<Portal, 'formats' | 'encoders'> {
  const fields = statement.fields ?? [];
  const formats = fields.map((_, i) => formatAt(codes, i));
  const encoders = fields.map((field, i) => {
    if (formats[i] === 0) return undefined;
    const encode = binaryEncoder(field.dataTypeID);
    if (!encode) throw new SqlStateError(FEATURE_NOT_SUPPORTED, `binary format is not supported for results of type ${field.dataTypeID} (column "${field.name}")`, 'Ask for this column in text format.');
    return encode;
  });
  return { formats, encoders };
}

export interface SessionHooks {
  /** Sends what the writer holds. */
  flush(writer: MessageWriter): void;
  /** An unexpected failure (a bug, not the client's doing): logged; the client gets XX000. */
  onInternalError(error: unknown): void;
  /** Every statement run, with its outcome: for metrics. */
  onStatement?(outcome: 'ok' | 'error'): void;
}

export class QuerySession {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly portals = new Map<string, Portal>();
  /** After an error in the extended protocol: skip to the next Sync. */
  private skippingToSync = false;
  private running: AbortController | undefined;

  constructor(
    private readonly handler: StatementHandler,
    private readonly writer: MessageWriter,
    private readonly hooks: SessionHooks,
  ) {}

  /** Cancels the statement running now, if any (a CancelRequest for this connection). */
  cancel(): void {
    this.running?.abort();
  }

  /** Answers one message. Returns false when the client ends the connection. */
  async handle(message: FrontendMessage): Promise<boolean> {
    if (message.type === 'terminate') return false;
    if (this.skippingToSync && message.type !== 'sync') return true;
    try {
      await this.dispatch(message);
    } catch (error) {
      if (isSqlStateLike(error) && error.fatal) {
        errorResponse(this.writer, { severity: 'FATAL', code: error.sqlstate, message: error.message, hint: error.hint });
        this.hooks.flush(this.writer);
        return false;
      }
      this.fail(error);
      if (message.type === 'query') this.ready();
      else this.skippingToSync = true;
    }
    if (message.type === 'flush') this.hooks.flush(this.writer);
    return true;
  }

  private async dispatch(message: FrontendMessage): Promise<void> {
    switch (message.type) {
      case 'query':
        return this.simpleQuery(message.sql);
      case 'parse': {
        if (message.name !== '' && this.statements.has(message.name)) throw new SqlStateError(DUPLICATE_PREPARED_STATEMENT, `prepared statement "${message.name}" already exists`);
        if (this.statements.size >= MAX_PREPARED_STATEMENTS && !this.statements.has(message.name)) {
          throw new SqlStateError(PROGRAM_LIMIT_EXCEEDED, `too many prepared statements (${MAX_PREPARED_STATEMENTS})`, 'Close (DEALLOCATE) statements the client no longer uses');
        }
        const prepared = await this.handler.prepare(message.sql, message.paramTypes);
        this.statements.set(message.name, prepared);
        parseComplete(this.writer);
        return;
      }
      case 'bind': {
        const statement = this.statements.get(message.statement);
        if (!statement) throw new SqlStateError(INVALID_SQL_STATEMENT_NAME, `prepared statement "${message.statement}" does not exist`);
        if (message.params.length !== statement.paramTypes.length) {
          throw new SqlStateError(PROTOCOL_VIOLATION, `bind message supplies ${message.params.length} parameters, but prepared statement "${message.statement}" requires ${statement.paramTypes.length}`);
        }
        if (message.portal !== '' && this.portals.has(message.portal)) throw new SqlStateError(DUPLICATE_CURSOR, `cursor "${message.portal}" already exists`);
        const params = message.params.map((value, i) => paramText(value, formatAt(message.paramFormats, i), statement.paramTypes[i] ?? 0));
        const { formats, encoders } = resultFormats(statement, message.resultFormats);
        this.portals.set(message.portal, { statement, params, formats, encoders, sent: 0 });
        bindComplete(this.writer);
        return;
      }
      case 'describe': {
        if (message.target === 'S') {
          const statement = this.statements.get(message.name);
          if (!statement) throw new SqlStateError(INVALID_SQL_STATEMENT_NAME, `prepared statement "${message.name}" does not exist`);
          parameterDescription(this.writer, statement.paramTypes);
          this.describeFields(statement.fields);
        } else {
          const portal = this.portals.get(message.name);
          if (!portal) throw new SqlStateError(INVALID_CURSOR_NAME, `portal "${message.name}" does not exist`);
          this.describeFields(portal.outcome?.fields ?? portal.statement.fields, portal.formats);
        }
        return;
      }
      case 'execute':
        return this.execute(message.portal, message.maxRows);
      case 'close':
        if (message.target === 'S') this.statements.delete(message.name);
        else this.portals.delete(message.name);
        closeComplete(this.writer);
        return;
      case 'sync':
        this.skippingToSync = false;
        // The unnamed portal lives until the end of the transaction; outside one, until Sync.
        if (this.handler.transaction === 'I') this.portals.clear();
        this.ready();
        return;
      case 'flush':
        return;
      case 'password':
        throw new SqlStateError(PROTOCOL_VIOLATION, 'unexpected password message');
      case 'copy-data':
      case 'copy-done':
      case 'copy-fail':
        // COPY FROM is a write and is refused before it starts: stray copy messages are ignored, as the
        // server ignores them outside a COPY IN.
        return;
      case 'unknown':
        throw new SqlStateError(PROTOCOL_VIOLATION, `invalid frontend message type "${message.code}"`);
    }
  }

  private describeFields(fields: PreparedStatement['fields'], formats: readonly number[] = []): void {
    if (fields) rowDescription(this.writer, fields, formats);
    else noData(this.writer);
  }

  private async simpleQuery(sql: string): Promise<void> {
    // A Query message drops the unnamed statement and portal, as PostgreSQL does.
    this.statements.delete('');
    this.portals.delete('');
    const statements = await this.handler.prepareSimple(sql);
    if (statements.length === 0) emptyQueryResponse(this.writer);
    for (const statement of statements) {
      const outcome = await this.run(statement, []);
      if (outcome.fields && !outcome.copy) rowDescription(this.writer, outcome.fields);
      this.sendRows(outcome, 0, outcome.rows.length);
      commandComplete(this.writer, outcome.tag);
      // Rows of a long answer go out as they are written; a short one goes with ReadyForQuery, in one
      // write (two small writes per statement cost a round of the network's delayed acknowledgement).
      if (this.writer.length >= FLUSH_BYTES) this.hooks.flush(this.writer);
    }
    this.ready();
  }

  private async execute(portalName: string, maxRows: number): Promise<void> {
    const portal = this.portals.get(portalName);
    if (!portal) throw new SqlStateError(INVALID_CURSOR_NAME, `portal "${portalName}" does not exist`);
    portal.outcome ??= await this.run(portal.statement, portal.params);
    const { outcome } = portal;
    if (outcome.tag === '') {
      emptyQueryResponse(this.writer);
      return;
    }
    const remaining = outcome.rows.length - portal.sent;
    const count = maxRows > 0 ? Math.min(maxRows, remaining) : remaining;
    this.sendRows(outcome, portal.sent, portal.sent + count, portal.encoders);
    portal.sent += count;
    if (maxRows > 0 && portal.sent < outcome.rows.length) portalSuspended(this.writer);
    else commandComplete(this.writer, outcome.tag);
  }

  private sendRows(outcome: StatementOutcome, from: number, to: number, encoders: Portal['encoders'] = []): void {
    for (const notice of outcome.notices ?? []) noticeResponse(this.writer, notice);
    for (const [name, value] of Object.entries(outcome.parameterStatus ?? {})) parameterStatus(this.writer, name, value);
    if (outcome.deallocate === null) this.statements.clear();
    else if (outcome.deallocate !== undefined) this.statements.delete(outcome.deallocate);
    if (outcome.copy) {
      const { format, header } = outcome.copy;
      copyOutResponse(this.writer, outcome.fields?.length ?? 0);
      if (header && outcome.fields) copyData(this.writer, copyLine(outcome.fields.map((f) => Buffer.from(f.name)), format));
      for (let i = from; i < to; i++) copyData(this.writer, copyLine(outcome.rows[i]!, format));
      copyDone(this.writer);
      return;
    }
    if (encoders.some(Boolean)) {
      for (let i = from; i < to; i++) dataRow(this.writer, outcome.rows[i]!.map((value, c) => (value === null || !encoders[c] ? value : encoders[c](value))));
      return;
    }
    for (let i = from; i < to; i++) dataRow(this.writer, outcome.rows[i]!);
  }

  private async run(statement: PreparedStatement, params: ReadonlyArray<string | null>): Promise<StatementOutcome> {
    const controller = new AbortController();
    this.running = controller;
    try {
      const outcome = await this.handler.run(statement, params, controller.signal);
      this.hooks.onStatement?.('ok');
      return outcome;
    } catch (error) {
      this.hooks.onStatement?.('error');
      throw error;
    } finally {
      this.running = undefined;
    }
  }

  private fail(error: unknown): void {
    this.handler.failed();
    if (isSqlStateLike(error)) {
      errorResponse(this.writer, { severity: 'ERROR', code: error.sqlstate, message: error.message, hint: error.hint, detail: error.detail, position: error.position });
      return;
    }
    this.hooks.onInternalError(error);
    errorResponse(this.writer, { severity: 'ERROR', code: 'XX000', message: 'internal error: the statement could not be answered; the service logged why' });
  }

  private ready(): void {
    readyForQuery(this.writer, this.handler.transaction);
    this.hooks.flush(this.writer);
  }
}
