// Checks every engine shares before any parsing: the text must be a non-empty string of sane length
// with no character that engines and parsers are known to read differently.
import { MAX_SQL_LENGTH, REASONS, refuse } from './reasons.js';

export { MAX_SQL_LENGTH } from './reasons.js';

// Control characters other than tab, newline, vertical tab, form feed and carriage return; Unicode
// spaces, line/paragraph separators and invisible format characters (zero-width space, BOM…). Some
// engines treat a few of them as whitespace and others as part of a word, which a check could read
// differently from the server; inside quotes they are harmless and checked per engine.
// eslint-disable-next-line no-control-regex -- control characters are what this matches
export const AMBIGUOUS_CHARACTER = /[\u0000-\u0008\u000e-\u001f\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]|\p{Cf}/u;

export function checkInput(sql: unknown): string {
  if (typeof sql !== 'string') refuse(REASONS.notString);
  if (sql.length > MAX_SQL_LENGTH) refuse(REASONS.tooLong);
  if (sql.includes('\u0000')) refuse(REASONS.nul);
  if (sql.trim() === '') refuse(REASONS.empty);
  if (/\p{Cs}/u.test(sql)) refuse(REASONS.badUnicode);
  return sql;
}
