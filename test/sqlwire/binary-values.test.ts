// The binary format this server writes for drivers that ask for it, held to PostgreSQL's own send
// functions (numeric_send, timestamp_send…) on the machine's PostgreSQL, for values at the edges of
// each layout; and the text values a governed result becomes, as PostgreSQL prints them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textValue } from '../../src/sqlwire/governed-rows.js';
import { binaryDecoder, binaryEncoder } from '../../src/sqlwire/protocol/binary-values.js';
import { hasService, POSTGRES_URL } from '../helpers/services.js';

const withPostgres = await hasService('postgres');

describe.skipIf(!withPostgres)('binary values, against PostgreSQL', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
  });
  afterAll(() => client?.end());

  const CASES: Array<[string, number, string[]]> = [
    ['numeric', 1700, ['0', '1', '-1', '12345.678', '0.0001', '-0.50', '10000', '99999999999999999999.000000001', '1.10', 'NaN', textValue(1e-7)!.toString(), textValue(1.5e21)!.toString()]],
    ['int8', 20, ['0', '-1', '9223372036854775807', '-9223372036854775808']],
    ['int4', 23, ['0', '-2147483648', '2147483647']],
    ['bool', 16, ['t', 'f']],
    ['float8', 701, ['0', '1.5', '-2.25e-10']],
    ['date', 1082, ['2000-01-01', '1999-12-31', '2026-11-27', 'infinity']],
    ['timestamp', 1114, ['2000-01-01 00:00:00', '1999-12-31 23:59:59.5', '2026-11-27 15:04:05.123456', '1970-01-01 00:00:00.000001']],
    ['timestamptz', 1184, ['2026-11-27 15:04:05.25+00', '2000-01-01 00:00:00+00']],
    ['text', 25, ['', 'é ✓ "quoted"']],
  ];

  it.each(CASES)('writes %s as PostgreSQL sends it', async (type, oid, values) => {
    const encode = binaryEncoder(oid)!;
    for (const value of values) {
      const sendFunction = type === 'text' ? 'textsend' : type === 'timestamptz' ? 'timestamptz_send' : `${type}${['int8', 'int4', 'bool', 'float8'].includes(type) ? 'send' : '_send'}`;
      const { rows } = await client.query(`SELECT encode(${sendFunction}($1::${type}), 'hex') AS hex`, [value]);
      expect(encode(Buffer.from(value)).toString('hex'), `${type} ${value}`).toBe(rows[0].hex);
    }
  });

  it('reads binary parameters back as the text PostgreSQL prints', async () => {
    await client.query("SET TIME ZONE 'UTC'");
    for (const [type, oid, values] of CASES.filter(([t]) => ['int8', 'int4', 'bool', 'date', 'timestamp'].includes(t))) {
      const decode = binaryDecoder(oid)!;
      for (const value of values.filter((v) => v !== 'infinity')) {
        const { rows } = await client.query(`SELECT $1::${type}::text AS text`, [value]);
        const decoded = decode(binaryEncoder(oid)!(Buffer.from(value)));
        const { rows: again } = await client.query(`SELECT $1::${type}::text AS text`, [decoded]);
        expect(again[0].text, `${type} ${value}`).toBe(rows[0].text);
      }
    }
  });
});

describe('governed values in text format', () => {
  it('prints timestamps, booleans and numbers as PostgreSQL does', () => {
    expect(textValue('2026-11-01T00:00:00.000')?.toString()).toBe('2026-11-01 00:00:00');
    expect(textValue('2026-11-01T10:20:30.120')?.toString()).toBe('2026-11-01 10:20:30.12');
    expect(textValue('2026-11-01T10:20:30.000Z')?.toString()).toBe('2026-11-01 10:20:30+00');
    expect(textValue('2026-11-01')?.toString()).toBe('2026-11-01');
    expect(textValue(true)?.toString()).toBe('t');
    expect(textValue(12.5)?.toString()).toBe('12.5');
    expect(textValue(null)).toBeNull();
  });

  it('prints a value as the type of its column: a time grain in a date column as its day, a date in a timestamp column at midnight', () => {
    // created_at::date is a day grain, which the warehouse answers as a timestamp at midnight.
    expect(textValue('2026-11-01T00:00:00.000', 'date')?.toString()).toBe('2026-11-01');
    expect(textValue('2026-11-01', 'date')?.toString()).toBe('2026-11-01');
    expect(textValue('2026-11-01', 'timestamp')?.toString()).toBe('2026-11-01 00:00:00');
    expect(textValue('2026-11-01T10:20:30.000', 'timestamp')?.toString()).toBe('2026-11-01 10:20:30');
    // …so that its binary format is that day (from `2026-11-01 00:00:00` it was 2000-01-01, zero days).
    const day = binaryEncoder(1082)!(textValue('2026-11-01T00:00:00.000', 'date')!);
    expect(binaryDecoder(1082)!(day)).toBe('2026-11-01');
  });

  it('prints numbers as numeric prints them, without an exponent', () => {
    expect(textValue(1e-7, 'number')?.toString()).toBe('0.0000001');
    expect(textValue(-1.5e-7, 'number')?.toString()).toBe('-0.00000015');
    expect(textValue(1.5e21, 'number')?.toString()).toBe('1500000000000000000000');
    expect(textValue(0.000001, 'number')?.toString()).toBe('0.000001');
    expect(textValue(-42, 'number')?.toString()).toBe('-42');
  });
});
