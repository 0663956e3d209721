// The options of `COPY (SELECT …) TO STDOUT`, both spellings (`WITH (FORMAT csv, HEADER)` and the old
// `WITH CSV HEADER`, which PostgreSQL's grammar turns into the same list). psql's
// `\copy (select …) to 'file'` sends exactly this statement and writes what comes back.
import type { Node } from 'libpg-query';
import { nodeAs } from './pg-ast.js';
import { FEATURE_NOT_SUPPORTED, SqlStateError, SYNTAX_ERROR } from './sql-state-error.js';

export interface CopyOptions {
  format: 'text' | 'csv';
  header: boolean;
  /** The options below are as written; absent, PostgreSQL's defaults for the format apply. */
  delimiter?: string;
  null?: string;
  quote?: string;
  escape?: string;
  encoding?: string;
  /** Columns always quoted (csv): their names, or `*` for all. */
  forceQuote?: readonly string[] | '*';
}

/** Options only COPY FROM takes: PostgreSQL refuses them on COPY TO with 0A000 as well. */
const FROM_ONLY = new Set(['freeze', 'force_not_null', 'force_null', 'default', 'on_error', 'log_verbosity', 'reject_limit']);

function text(def: { defname?: string; arg?: Node }): string {
  const value = nodeAs(def.arg, 'String')?.sval ?? nodeAs(def.arg, 'A_Const')?.sval?.sval;
  if (value === undefined) throw new SqlStateError(SYNTAX_ERROR, `${def.defname ?? 'option'} requires a parameter`);
  return value;
}

/** A boolean option as PostgreSQL reads it: no value, true/false/on/off/1/0. */
function flag(def: { defname?: string; arg?: Node }): boolean {
  if (def.arg === undefined) return true;
  const boolean = nodeAs(def.arg, 'Boolean');
  if (boolean) return boolean.boolval === true;
  const integer = nodeAs(def.arg, 'Integer');
  if (integer) return (integer.ival ?? 0) !== 0;
  const word = text(def).toLowerCase();
  if (['true', 'on', '1'].includes(word)) return true;
  if (['false', 'off', '0'].includes(word)) return false;
  if (word === 'match') throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'cannot use "match" with HEADER in COPY TO');
  throw new SqlStateError(SYNTAX_ERROR, `${def.defname} requires a Boolean value`);
}

export function copyOptionsOf(options: readonly Node[] | undefined): CopyOptions {
  const result: CopyOptions = { format: 'text', header: false };
  for (const option of options ?? []) {
    const def = nodeAs(option, 'DefElem');
    if (!def?.defname) continue;
    const name = def.defname;
    if (name === 'format') {
      const format = text(def).toLowerCase();
      if (format === 'binary') throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'COPY format "binary" is not supported', 'Use FORMAT csv or FORMAT text.');
      if (format !== 'csv' && format !== 'text') throw new SqlStateError(SYNTAX_ERROR, `COPY format "${format}" not recognized`);
      result.format = format;
    } else if (name === 'header') result.header = flag(def);
    else if (name === 'delimiter' || name === 'null' || name === 'quote' || name === 'escape' || name === 'encoding') result[name] = text(def);
    else if (name === 'force_quote') result.forceQuote = forceQuoteOf(def.arg);
    else if (FROM_ONLY.has(name)) throw new SqlStateError(FEATURE_NOT_SUPPORTED, `COPY ${name.toUpperCase()} cannot be used with COPY TO`);
    else throw new SqlStateError(SYNTAX_ERROR, `option "${name}" not recognized`);
  }
  return result;
}

function forceQuoteOf(arg: Node | undefined): readonly string[] | '*' {
  if (arg === undefined || nodeAs(arg, 'A_Star')) return '*';
  const items = nodeAs(arg, 'List')?.items ?? [];
  return items.map((item) => nodeAs(item, 'String')?.sval ?? '');
}
