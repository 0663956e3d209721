// The messages the server sends, encoded as the PostgreSQL protocol (version 3.0) frames them: a type
// byte, a 32-bit length that counts itself, then the fields. Strings are NUL-terminated UTF-8; a column
// value is a 32-bit length (-1 for NULL) and its bytes, in text format.

/** One column of a result, as RowDescription describes it. */
export interface FieldDescription {
  readonly name: string;
  /** The table's OID and the column's number, or 0 when the column is not a table's. */
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeID: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
}

/** An error or notice, with the fields clients show (severity, SQLSTATE, message, hint, position). */
export interface ServerNotice {
  readonly severity: 'ERROR' | 'FATAL' | 'NOTICE' | 'WARNING';
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
  /** 1-based character offset into the statement. */
  readonly position?: number;
}

export type TransactionStatus = 'I' | 'T' | 'E';

/** Accumulates one or more messages into one buffer, so a reply goes out in one write. */
export class MessageWriter {
  private chunks: Buffer[] = [];
  private size = 0;

  private push(chunk: Buffer): this {
    this.chunks.push(chunk);
    this.size += chunk.length;
    return this;
  }

  /** A message of `type` whose body is the concatenation of `parts`. */
  message(type: string, ...parts: Buffer[]): this {
    const bodyLength = parts.reduce((n, p) => n + p.length, 0);
    const header = Buffer.allocUnsafe(5);
    header.write(type, 0, 'latin1');
    header.writeInt32BE(bodyLength + 4, 1);
    this.push(header);
    for (const part of parts) this.push(part);
    return this;
  }

  /** Bytes that are not a typed message (the one-byte answer to SSLRequest). */
  raw(bytes: Buffer): this {
    return this.push(bytes);
  }

  get length(): number {
    return this.size;
  }

  /** The messages written so far, and a fresh start. */
  take(): Buffer {
    const out = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    return out;
  }
}

export const cstring = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf8');
const int32 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(4);
  b.writeInt32BE(n);
  return b;
};
const int16 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(2);
  b.writeInt16BE(n);
  return b;
};
const EMPTY = Buffer.alloc(0);

export const authenticationOk = (w: MessageWriter) => w.message('R', int32(0));
export const authenticationCleartextPassword = (w: MessageWriter) => w.message('R', int32(3));
export const parameterStatus = (w: MessageWriter, name: string, value: string) => w.message('S', cstring(name), cstring(value));
export const backendKeyData = (w: MessageWriter, processId: number, secret: number) => w.message('K', int32(processId), int32(secret));
export const readyForQuery = (w: MessageWriter, status: TransactionStatus) => w.message('Z', Buffer.from(status, 'latin1'));
export const parseComplete = (w: MessageWriter) => w.message('1');
export const bindComplete = (w: MessageWriter) => w.message('2');
export const closeComplete = (w: MessageWriter) => w.message('3');
export const noData = (w: MessageWriter) => w.message('n');
export const portalSuspended = (w: MessageWriter) => w.message('s');
export const emptyQueryResponse = (w: MessageWriter) => w.message('I');
export const commandComplete = (w: MessageWriter, tag: string) => w.message('C', cstring(tag));

export function parameterDescription(w: MessageWriter, typeIds: readonly number[]): MessageWriter {
  return w.message('t', int16(typeIds.length), ...typeIds.map(int32));
}

/** `formats`: each column's format code (0 text, 1 binary) as the portal will send it; text when absent. */
export function rowDescription(w: MessageWriter, fields: readonly FieldDescription[], formats: readonly number[] = []): MessageWriter {
  const parts: Buffer[] = [int16(fields.length)];
  for (const [i, f] of fields.entries()) {
    const fixed = Buffer.allocUnsafe(18);
    fixed.writeInt32BE(f.tableID, 0);
    fixed.writeInt16BE(f.columnID, 4);
    fixed.writeInt32BE(f.dataTypeID, 6);
    fixed.writeInt16BE(f.dataTypeSize, 10);
    fixed.writeInt32BE(f.dataTypeModifier, 12);
    fixed.writeInt16BE(formats[i] ?? 0, 16);
    parts.push(cstring(f.name), fixed);
  }
  return w.message('T', ...parts);
}

/** One row, its values already in text format (null for SQL NULL). */
export function dataRow(w: MessageWriter, values: ReadonlyArray<Buffer | null>): MessageWriter {
  const parts: Buffer[] = [int16(values.length)];
  for (const value of values) {
    if (value === null) parts.push(int32(-1));
    else parts.push(int32(value.length), value);
  }
  return w.message('D', ...parts);
}

function noticeFields(notice: ServerNotice): Buffer[] {
  const fields: Array<[string, string | undefined]> = [
    ['S', notice.severity],
    ['V', notice.severity],
    ['C', notice.code],
    ['M', notice.message],
    ['D', notice.detail],
    ['H', notice.hint],
    ['P', notice.position === undefined ? undefined : String(notice.position)],
  ];
  const parts = fields.filter((f): f is [string, string] => f[1] !== undefined).map(([code, value]) => Buffer.concat([Buffer.from(code, 'latin1'), cstring(value)]));
  parts.push(Buffer.from([0]));
  return parts;
}

export const errorResponse = (w: MessageWriter, notice: ServerNotice) => w.message('E', ...noticeFields(notice));
export const noticeResponse = (w: MessageWriter, notice: ServerNotice) => w.message('N', ...noticeFields(notice));

/** COPY … TO STDOUT: the columns' count, all in text format. */
export function copyOutResponse(w: MessageWriter, columns: number): MessageWriter {
  return w.message('H', Buffer.from([0]), int16(columns), ...Array.from({ length: columns }, () => int16(0)));
}
export const copyData = (w: MessageWriter, bytes: Buffer) => w.message('d', bytes);
export const copyDone = (w: MessageWriter) => w.message('c', EMPTY);
