// PostgreSQL's binary format for the types drivers ask it for. pgJDBC, once a statement is prepared on
// the server (after five executions), asks for binary results for the types it reads faster that way,
// and may send numbers as binary parameters. Values here are made and kept in text format; these
// convert between the two, type by type, exactly as PostgreSQL's send/recv functions lay them out.
// A binary format asked for a type not here is refused at Bind (0A000): clients then keep to text.

/** 2000-01-01, PostgreSQL's epoch for dates and timestamps, in Unix milliseconds. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

type Encoder = (text: string) => Buffer;
type Decoder = (bytes: Buffer) => string;

function int(bytes: number, write: (b: Buffer, v: number) => void): Encoder {
  return (text) => {
    const b = Buffer.alloc(bytes);
    write(b, Number(text));
    return b;
  };
}

function encodeInt8(text: string): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(text));
  return b;
}

function encodeDate(text: string): Buffer {
  const b = Buffer.alloc(4);
  if (text === 'infinity') b.writeInt32BE(0x7fffffff);
  else if (text === '-infinity') b.writeInt32BE(-0x80000000);
  else b.writeInt32BE(Math.round((Date.parse(`${text}T00:00:00Z`) - PG_EPOCH_MS) / DAY_MS));
  return b;
}

/** Microseconds since 2000-01-01 of a text timestamp (`YYYY-MM-DD HH:MM:SS[.ffffff][±HH[:MM]]`). */
function timestampMicros(text: string): bigint {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?([+-]\d{2}(?::?\d{2})?)?$/.exec(text);
  if (!m) throw new RangeError(`not a timestamp: ${text}`);
  const offset = m[4] ? `${m[4].slice(0, 3)}:${m[4].slice(3).replace(':', '') || '00'}` : 'Z';
  const ms = Date.parse(`${m[1]}T${m[2]}${offset}`);
  const micros = BigInt((m[3] ?? '').padEnd(6, '0'));
  return BigInt(ms - PG_EPOCH_MS) * 1000n + micros;
}

function encodeTimestamp(text: string): Buffer {
  const b = Buffer.alloc(8);
  if (text === 'infinity') b.writeBigInt64BE(0x7fffffffffffffffn);
  else if (text === '-infinity') b.writeBigInt64BE(-0x8000000000000000n);
  else b.writeBigInt64BE(timestampMicros(text));
  return b;
}

/** numeric's binary layout: digit count, weight, sign, display scale, then base-10000 digits. */
function encodeNumeric(text: string): Buffer {
  if (text === 'NaN') return Buffer.from([0, 0, 0, 0, 0xc0, 0, 0, 0]);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const dscale = fraction.length;
  // Group the digits by four from the decimal point outwards.
  const intPart = whole.replace(/^0+/, '');
  const paddedInt = intPart.padStart(Math.ceil(intPart.length / 4) * 4, '0');
  const paddedFrac = fraction.padEnd(Math.ceil(fraction.length / 4) * 4, '0');
  const digits = [...(paddedInt.match(/.{4}/g) ?? []), ...(paddedFrac.match(/.{4}/g) ?? [])].map(Number);
  let weight = paddedInt.length / 4 - 1;
  while (digits.length > 0 && digits[0] === 0) {
    digits.shift();
    weight--;
  }
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  if (digits.length === 0) weight = 0;
  const b = Buffer.alloc(8 + 2 * digits.length);
  b.writeInt16BE(digits.length, 0);
  b.writeInt16BE(weight, 2);
  b.writeUInt16BE(negative && digits.length > 0 ? 0x4000 : 0, 4);
  b.writeInt16BE(dscale, 6);
  digits.forEach((d, i) => b.writeInt16BE(d, 8 + 2 * i));
  return b;
}

const asText: Encoder = (text) => Buffer.from(text, 'utf8');

/** By type OID: bool, int8/2/4, oid, float4/8, text-like types, date, timestamp(tz), numeric, uuid. */
const ENCODERS: Record<number, Encoder> = {
  16: (t) => Buffer.from([t === 't' ? 1 : 0]),
  18: asText,
  19: asText,
  20: encodeInt8,
  21: int(2, (b, v) => b.writeInt16BE(v)),
  23: int(4, (b, v) => b.writeInt32BE(v)),
  25: asText,
  26: int(4, (b, v) => b.writeUInt32BE(v)),
  700: (t) => {
    const b = Buffer.alloc(4);
    b.writeFloatBE(Number(t));
    return b;
  },
  701: (t) => {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(Number(t));
    return b;
  },
  705: asText,
  1042: asText,
  1043: asText,
  1082: encodeDate,
  1114: encodeTimestamp,
  1184: encodeTimestamp,
  1700: encodeNumeric,
  2950: (t) => Buffer.from(t.replace(/-/g, ''), 'hex'),
};

/** Converts a text-format value to the binary format of its type, or undefined when that type has none here. */
export function binaryEncoder(typeOid: number): ((value: Buffer) => Buffer) | undefined {
  const encode = ENCODERS[typeOid];
  return encode ? (value) => encode(value.toString('utf8')) : undefined;
}

function decodeTimestamp(b: Buffer, withZone: boolean): string {
  const micros = b.readBigInt64BE();
  // Whole seconds rounded down (before 2000 too), and the microseconds past them.
  const fractionMicros = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const seconds = (micros - fractionMicros) / 1_000_000n;
  const fraction = String(fractionMicros).padStart(6, '0');
  const iso = new Date(Number(seconds) * 1000 + PG_EPOCH_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction}${withZone ? '+00' : ''}`;
}

const DECODERS: Record<number, Decoder> = {
  16: (b) => (b[0] ? 't' : 'f'),
  20: (b) => b.readBigInt64BE().toString(),
  21: (b) => String(b.readInt16BE()),
  23: (b) => String(b.readInt32BE()),
  25: (b) => b.toString('utf8'),
  26: (b) => String(b.readUInt32BE()),
  700: (b) => String(b.readFloatBE()),
  701: (b) => String(b.readDoubleBE()),
  1042: (b) => b.toString('utf8'),
  1043: (b) => b.toString('utf8'),
  1082: (b) => new Date(PG_EPOCH_MS + b.readInt32BE() * DAY_MS).toISOString().slice(0, 10),
  1114: (b) => decodeTimestamp(b, false),
  1184: (b) => decodeTimestamp(b, true),
};

/** Reads a binary-format parameter of a declared type as text, or undefined when that type has none here. */
export function binaryDecoder(typeOid: number): Decoder | undefined {
  return DECODERS[typeOid];
}
