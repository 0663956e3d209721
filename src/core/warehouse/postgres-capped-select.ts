// Decides, with PostgreSQL's own grammar (libpg-query, the parser the read-only guard uses), whether a
// statement is exactly one plain SELECT, and if so caps it in SQL: `SELECT * FROM (<stmt>) LIMIT cap`.
// A cap in SQL instead of a cursor matters for speed: PostgreSQL runs a portal fetched in batches
// without parallel workers, so a cursor made large grouped scans up to 1.4× slower than a plain query.
// The wrapping is safe only because the parser has proven the text is one complete SelectStmt (so its
// quotes, comments and parentheses are closed and it cannot reach outside the parentheses); the
// session runs with standard_conforming_strings on, so the server reads the strings as the parser did.
// Anything else (EXPLAIN, SHOW, SELECT INTO, FOR UPDATE, text the parser rejects) is not wrapped and
// takes the driver's cursor path, where the server itself decides.
import { parseSync } from 'libpg-query';
import { BoundedMemo } from '../bounded-memo.js';
import { loadPostgresParser } from '../sql/guard/postgres.js';

const memo = new BoundedMemo<string | null>(500, 8_000);

/** The statement's text without a trailing `;`, when it is one plain SELECT; null otherwise. */
export async function plainSelectText(sql: string): Promise<string | null> {
  const known = memo.get(sql);
  if (known !== undefined) return known;
  let text: string | null = null;
  try {
    await loadPostgresParser();
    text = selectText(sql);
  } catch {
    text = null;
  }
  memo.set(sql, text);
  return text;
}

interface RawStatement {
  stmt?: Record<string, unknown>;
  stmt_location?: number;
  stmt_len?: number;
}

function selectText(sql: string): string | null {
  const { stmts = [] } = parseSync(sql) as { stmts?: RawStatement[] };
  if (stmts.length !== 1) return null;
  const [only] = stmts;
  const select = only!.stmt?.SelectStmt as Record<string, unknown> | undefined;
  if (!select || select.intoClause || select.lockingClause) return null;
  // Locations are byte offsets into the UTF-8 text; a length of 0 means "to the end".
  const bytes = Buffer.from(sql, 'utf8');
  const start = only!.stmt_location ?? 0;
  const end = only!.stmt_len ? start + only!.stmt_len : bytes.length;
  return bytes.subarray(start, end).toString('utf8');
}

/**
 * The statement with at most `rows` rows. The line breaks keep a trailing `--` comment of the
 * statement from swallowing the closing parenthesis.
 */
export function cappedSelect(selectText: string, rows: number): string {
  return `SELECT * FROM (\n${selectText}\n) AS capped LIMIT ${Math.trunc(rows)}`;
}
