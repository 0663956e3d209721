// The messages of a mirror's answer, read as the PostgreSQL protocol (3.0) frames them: a type byte, a
// 32-bit length that counts itself, then the fields. Only the kinds a catalog exchange needs are read
// into fields; the rest are named and skipped. A row's values stay the bytes PostgreSQL sent (views of
// the answer, nothing decoded or copied), which is what the connection sends on: a general protocol
// parser decoding each value to a string and back cost a tenth of a millisecond per answer.

export interface BackendField {
  readonly name: string;
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeID: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
}

/** ErrorResponse's fields: C (SQLSTATE), M, D, H, P, by their code letter. */
export type ErrorFields = Readonly<Record<string, string>>;

export type BackendMessage =
  | { readonly kind: 'row'; readonly values: (Buffer | null)[] }
  | { readonly kind: 'fields'; readonly fields: BackendField[] }
  | { readonly kind: 'parameters'; readonly types: number[] }
  | { readonly kind: 'complete'; readonly tag: string }
  | { readonly kind: 'suspended' }
  | { readonly kind: 'error'; readonly fields: ErrorFields }
  | { readonly kind: 'ready' }
  | { readonly kind: 'copy' }
  | { readonly kind: 'other' };

/** Thrown when the bytes are not whole protocol messages. */
export class MalformedAnswer extends Error {}

class Cursor {
  constructor(
    private readonly bytes: Buffer,
    public at: number,
  ) {}

  int16(): number {
    const value = this.bytes.readInt16BE(this.at);
    this.at += 2;
    return value;
  }

  int32(): number {
    const value = this.bytes.readInt32BE(this.at);
    this.at += 4;
    return value;
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(): string {
    const end = this.bytes.indexOf(0, this.at);
    if (end < 0) throw new MalformedAnswer('unterminated string');
    const text = this.bytes.toString('utf8', this.at, end);
    this.at = end + 1;
    return text;
  }

  bytesOf(length: number): Buffer {
    const value = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }
}

function messageOf(type: number, body: Cursor, bodyEnd: number): BackendMessage {
  switch (String.fromCharCode(type)) {
    case 'D': {
      const count = body.int16();
      const values: (Buffer | null)[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const length = body.int32();
        values[i] = length < 0 ? null : body.bytesOf(length);
      }
      return { kind: 'row', values };
    }
    case 'T': {
      const count = body.int16();
      const fields: BackendField[] = [];
      for (let i = 0; i < count; i++) {
        const name = body.cstring();
        const tableID = body.int32() >>> 0;
        const columnID = body.int16();
        const dataTypeID = body.int32() >>> 0;
        const dataTypeSize = body.int16();
        const dataTypeModifier = body.int32();
        body.int16(); // format: always text here
        fields.push({ name, tableID, columnID, dataTypeID, dataTypeSize, dataTypeModifier });
      }
      return { kind: 'fields', fields };
    }
    case 't': {
      const count = body.int16();
      return { kind: 'parameters', types: Array.from({ length: count }, () => body.int32() >>> 0) };
    }
    case 'C':
      return { kind: 'complete', tag: body.cstring() };
    case 's':
      return { kind: 'suspended' };
    case 'E': {
      const fields: Record<string, string> = {};
      while (body.at < bodyEnd) {
        const code = body.bytesOf(1)[0]!;
        if (code === 0) break;
        fields[String.fromCharCode(code)] = body.cstring();
      }
      return { kind: 'error', fields };
    }
    case 'Z':
      return { kind: 'ready' };
    case 'H':
    case 'G':
      return { kind: 'copy' };
    default:
      return { kind: 'other' };
  }
}

/** The messages of `bytes`, in order. */
export function backendMessages(bytes: Uint8Array): BackendMessage[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const messages: BackendMessage[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (at + 5 > buffer.length) throw new MalformedAnswer('a message cut short');
    const type = buffer[at]!;
    const end = at + 1 + buffer.readInt32BE(at + 1);
    if (end > buffer.length || end < at + 5) throw new MalformedAnswer('a message cut short');
    messages.push(messageOf(type, new Cursor(buffer, at + 5), end));
    at = end;
  }
  return messages;
}
