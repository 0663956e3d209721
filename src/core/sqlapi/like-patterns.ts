// LIKE patterns as the filters of a semantic query. The compiler's contains, startsWith and endsWith
// ignore letter case (they render ILIKE), so they are exactly `ILIKE '%x%'`, `ILIKE 'x%'`, `ILIKE '%x'`,
// and `LOWER(column) LIKE '%x%'` with a lower-case x (UPPER alike). A case-sensitive LIKE maps to them
// only when the text has no letter whose case could differ ('%2024%'); otherwise it is refused rather
// than answered with more rows than PostgreSQL would give. A pattern without wildcards is an equality
// (case-sensitive, so ILIKE only without cased letters), `%` alone is IS NOT NULL. `_`, and `%` inside
// the text, have no filter: 0A000. Backslash escapes as in PostgreSQL.
import type { Filter } from '../semantic/query.js';
import type { LikeMode } from './select-plan-types.js';
import { FEATURE_NOT_SUPPORTED, INVALID_ESCAPE_SEQUENCE, SqlStateError } from './sql-state-error.js';

const PATTERNS_HINT = "Patterns are '%text%', 'text%' or '%text' (escape % and _ in the text with a backslash).";

type Shape = 'contains' | 'startsWith' | 'endsWith' | 'equals' | 'any';

/** The shape of a pattern and its text (unescaped), or undefined when no filter has that meaning. */
function shapeOf(pattern: string, position: number | undefined): { shape: Shape; text: string } | undefined {
  const tokens: Array<{ wildcard: boolean; char: string }> = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '_') return undefined;
    if (c === '\\') {
      if (i === pattern.length - 1) throw new SqlStateError(INVALID_ESCAPE_SEQUENCE, 'LIKE pattern must not end with escape character', undefined, position);
      tokens.push({ wildcard: false, char: pattern[++i]! });
    } else tokens.push({ wildcard: c === '%', char: c });
  }
  let lead = 0;
  while (lead < tokens.length && tokens[lead]!.wildcard) lead++;
  let trail = tokens.length;
  while (trail > lead && tokens[trail - 1]!.wildcard) trail--;
  const middle = tokens.slice(lead, trail);
  if (middle.some((t) => t.wildcard)) return undefined;
  const text = middle.map((t) => t.char).join('');
  const leading = lead > 0;
  const trailing = trail < tokens.length;
  if (text === '' && (leading || trailing)) return { shape: 'any', text };
  const shape: Shape = leading && trailing ? 'contains' : leading ? 'endsWith' : trailing ? 'startsWith' : 'equals';
  return { shape, text };
}

function refuse(message: string, hint: string, position: number | undefined): never {
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, message, hint, position);
}

export function likeFilter(field: string, pattern: string, like: { mode: LikeMode; negate: boolean }, position: number | undefined): Filter {
  const parsed = shapeOf(pattern, position);
  const keyword = like.mode === 'ilike' ? 'ILIKE' : 'LIKE';
  if (!parsed) refuse(`${keyword} pattern '${pattern}' is not supported on model tables`, PATTERNS_HINT, position);
  const { shape, text } = parsed;
  const cased = text.toLowerCase() !== text.toUpperCase();
  if (cased) {
    if (like.mode === 'lower' && text !== text.toLowerCase()) refuse(`LOWER(column) never matches '${pattern}', which has upper-case letters`, `Write the pattern in lower case: '${pattern.toLowerCase()}'.`, position);
    if (like.mode === 'upper' && text !== text.toUpperCase()) refuse(`UPPER(column) never matches '${pattern}', which has lower-case letters`, `Write the pattern in upper case: '${pattern.toUpperCase()}'.`, position);
    if (shape === 'equals' && like.mode !== 'like') refuse('a match ignoring case without a wildcard is not supported on model tables', `Write column = '${text}' (case-sensitive) or ${keyword} '%${text}%'.`, position);
    if (shape !== 'equals' && like.mode === 'like') {
      refuse('LIKE matches letter case, and text filters on model tables ignore it', `Write ILIKE '${pattern}', or LOWER(column) LIKE '${pattern.toLowerCase()}'.`, position);
    }
  }
  if (!like.negate) {
    if (shape === 'any') return { field, operator: 'notNull' };
    return { field, operator: shape, value: text };
  }
  if (shape !== 'contains' && shape !== 'equals') refuse(`NOT ${keyword} '${pattern}' is not supported on model tables`, `NOT ${keyword} takes '%text%' here.`, position);
  // SQL's NOT LIKE drops the rows without a value; notContains and notEquals keep them.
  return { and: [{ field, operator: shape === 'contains' ? 'notContains' : 'notEquals', value: text }, { field, operator: 'notNull' }] };
}
