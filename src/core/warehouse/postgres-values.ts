// Type parsers for the PostgreSQL driver's own pool and cursors. They are passed per pool/cursor and
// never installed globally: the metadata store uses pg as well and expects pg's defaults.
import pg from 'pg';
import { fromDateText, fromNaiveTimestampText, fromNumericText, fromNumber, fromZonedTimestampText } from './values.js';

const OID = {
  int8: 20,
  float4: 700,
  float8: 701,
  numeric: 1700,
  money: 790,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
} as const;

const identity = (text: string) => text;

function parserFor(oid: number): ((text: string) => unknown) | undefined {
  switch (oid) {
    case OID.int8:
    case OID.numeric:
      return fromNumericText;
    case OID.float4:
    case OID.float8:
      return (text) => fromNumber(Number(text));
    case OID.date:
      return fromDateText;
    case OID.timestamp:
      return fromNaiveTimestampText;
    case OID.timestamptz:
      return fromZonedTimestampText;
    // pg's defaults turn these into objects; their text form is the clearest JSON.
    case OID.interval:
    case OID.time:
    case OID.money:
      return identity;
    default:
      return undefined;
  }
}

export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      const parser = parserFor(oid);
      if (parser) return parser;
    }
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};
