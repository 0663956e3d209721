// The messages a client sends, cut out of the byte stream and decoded. Before start-up a message has no
// type byte (a length, then a 32-bit code: protocol version, SSLRequest, GSSENCRequest, CancelRequest);
// after it, every message is a type byte and a length that counts itself. A message longer than
// MAX_MESSAGE_BYTES ends the connection: no client sends statements or parameters that large, and an
// unbounded length would let one client make the server buffer without end.

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const PROTOCOL_3 = 196_608;
export const SSL_REQUEST = 80_877_103;
export const GSSENC_REQUEST = 80_877_104;
export const CANCEL_REQUEST = 80_877_102;

export type StartupMessage =
  | { readonly kind: 'startup'; readonly version: number; readonly parameters: Readonly<Record<string, string>> }
  | { readonly kind: 'ssl' }
  | { readonly kind: 'gssenc' }
  | { readonly kind: 'cancel'; readonly processId: number; readonly secret: number };

export type FrontendMessage =
  | { readonly type: 'query'; readonly sql: string }
  | { readonly type: 'parse'; readonly name: string; readonly sql: string; readonly paramTypes: readonly number[] }
  | { readonly type: 'bind'; readonly portal: string; readonly statement: string; readonly paramFormats: readonly number[]; readonly params: ReadonlyArray<Buffer | null>; readonly resultFormats: readonly number[] }
  | { readonly type: 'describe'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly type: 'execute'; readonly portal: string; readonly maxRows: number }
  | { readonly type: 'close'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly type: 'sync' }
  | { readonly type: 'flush' }
  | { readonly type: 'terminate' }
  | { readonly type: 'password'; readonly password: string }
  | { readonly type: 'copy-data' | 'copy-done' | 'copy-fail' }
  | { readonly type: 'unknown'; readonly code: string };

export class ProtocolViolation extends Error {}

/** Reads fields in order from one message's body. */
class BodyReader {
  private offset = 0;
  constructor(private readonly body: Buffer) {}

  private need(bytes: number): void {
    if (this.offset + bytes > this.body.length) throw new ProtocolViolation('message shorter than its fields');
  }
  int16(): number {
    this.need(2);
    const v = this.body.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  int32(): number {
    this.need(4);
    const v = this.body.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  byte(): string {
    this.need(1);
    return String.fromCharCode(this.body[this.offset++]!);
  }
  cstring(): string {
    const end = this.body.indexOf(0, this.offset);
    if (end < 0) throw new ProtocolViolation('string without its terminating zero byte');
    const text = this.body.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return text;
  }
  bytes(length: number): Buffer {
    this.need(length);
    const b = this.body.subarray(this.offset, this.offset + length);
    this.offset += length;
    return b;
  }
  get atEnd(): boolean {
    return this.offset >= this.body.length;
  }
}

function decodeStartup(body: Buffer): StartupMessage {
  const r = new BodyReader(body);
  const code = r.int32();
  if (code === SSL_REQUEST) return { kind: 'ssl' };
  if (code === GSSENC_REQUEST) return { kind: 'gssenc' };
  if (code === CANCEL_REQUEST) return { kind: 'cancel', processId: r.int32(), secret: r.int32() };
  const parameters: Record<string, string> = {};
  for (;;) {
    if (r.atEnd) break;
    const name = r.cstring();
    if (name === '') break;
    parameters[name] = r.cstring();
  }
  return { kind: 'startup', version: code, parameters };
}

function decode(type: string, body: Buffer): FrontendMessage {
  const r = new BodyReader(body);
  switch (type) {
    case 'Q':
      return { type: 'query', sql: r.cstring() };
    case 'P': {
      const name = r.cstring();
      const sql = r.cstring();
      const count = r.int16();
      return { type: 'parse', name, sql, paramTypes: Array.from({ length: count }, () => r.int32()) };
    }
    case 'B': {
      const portal = r.cstring();
      const statement = r.cstring();
      const paramFormats = Array.from({ length: r.int16() }, () => r.int16());
      const params = Array.from({ length: r.int16() }, () => {
        const length = r.int32();
        return length < 0 ? null : Buffer.from(r.bytes(length));
      });
      const resultFormats = Array.from({ length: r.int16() }, () => r.int16());
      return { type: 'bind', portal, statement, paramFormats, params, resultFormats };
    }
    case 'D':
    case 'C': {
      const target = r.byte();
      if (target !== 'S' && target !== 'P') throw new ProtocolViolation(`invalid ${type === 'D' ? 'Describe' : 'Close'} target "${target}"`);
      return { type: type === 'D' ? 'describe' : 'close', target, name: r.cstring() };
    }
    case 'E':
      return { type: 'execute', portal: r.cstring(), maxRows: r.int32() };
    case 'S':
      return { type: 'sync' };
    case 'H':
      return { type: 'flush' };
    case 'X':
      return { type: 'terminate' };
    case 'p':
      return { type: 'password', password: r.cstring() };
    case 'd':
      return { type: 'copy-data' };
    case 'c':
      return { type: 'copy-done' };
    case 'f':
      return { type: 'copy-fail' };
    default:
      return { type: 'unknown', code: type };
  }
}

/** Cuts messages out of the bytes received, whatever the chunks' boundaries. */
export class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** After the start-up message: messages carry a type byte from now on. */
  markStarted(): void {
    this.started = true;
  }

  /** The next start-up message, or undefined until all of it has arrived. */
  nextStartup(): StartupMessage | undefined {
    if (this.buffer.length < 4) return undefined;
    const length = this.buffer.readInt32BE(0);
    if (length < 8 || length > 10_000) throw new ProtocolViolation('invalid start-up packet length');
    if (this.buffer.length < length) return undefined;
    const body = this.buffer.subarray(4, length);
    this.buffer = this.buffer.subarray(length);
    return decodeStartup(body);
  }

  /** The next message, or undefined until all of it has arrived. */
  next(): FrontendMessage | undefined {
    if (!this.started) throw new Error('next() before the start-up message');
    if (this.buffer.length < 5) return undefined;
    const type = String.fromCharCode(this.buffer[0]!);
    const length = this.buffer.readInt32BE(1);
    if (length < 4 || length > MAX_MESSAGE_BYTES) throw new ProtocolViolation(`invalid message length ${length}`);
    if (this.buffer.length < 1 + length) return undefined;
    const body = this.buffer.subarray(5, 1 + length);
    this.buffer = this.buffer.subarray(1 + length);
    return decode(type, body);
  }

  /** Bytes received and not yet consumed (TLS must not start with any: they would be plaintext). */
  get pending(): number {
    return this.buffer.length;
  }
}
