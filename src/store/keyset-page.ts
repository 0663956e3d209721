// Pages of the store's lists, and the one cursor every paged list hands out. A page is keyed by the
// (time, id) of its last row: rows written meanwhile never shift or repeat a row of the pages read.
//
// The time is carried exactly as the store holds it. PostgreSQL keeps microseconds, and every row one
// transaction writes with now() shares one instant (a webhook fan-out's deliveries, for example);
// a JavaScript Date keeps milliseconds, so a cursor made from the row as read would sit before or after
// rows of its own instant and skip or repeat them. So the store writes the instant as UTC text with
// all six fraction digits, the cursor carries that text, and the comparison happens in SQL against the
// text cast back to timestamptz, which reads it exactly; ties are broken by id.
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { BadRequestError } from '../core/errors.js';

/** Where a page starts: after the row at this instant (UTC text with microseconds) and id. */
export interface PageAfter {
  at: string;
  id: string;
}

/** A page asked for: at most `limit` rows, after the row a previous page's next_cursor names. */
export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<Row> {
  rows: Row[];
  /** The cursor of the next page, or null when this page is the last. */
  nextCursor: string | null;
}

/** The columns a list is ordered by (as the query names them) and which way. */
export interface PageOrder {
  time: string;
  id: string;
  direction: 'asc' | 'desc';
}

const PAGE_KEY = 'page_key_at';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads one page of `query` (filtered, not yet ordered or limited) in `order`: `limit` rows after the
 * cursor's row, and the cursor of the next page when one more row exists.
 */
export async function readPage<DB, TB extends keyof DB, O extends { id: string }>(query: SelectQueryBuilder<DB, TB, O>, order: PageOrder, page: PageRequest): Promise<Page<O>> {
  const after = page.cursor ? decodePageCursor(page.cursor) : undefined;
  const time = sql.ref(order.time);
  const id = sql.ref(order.id);
  let keyed = query.select(sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(PAGE_KEY));
  if (after) {
    const beyond = sql.raw(order.direction === 'asc' ? '>' : '<');
    keyed = keyed.where(sql<SqlBool>`(${time}, ${id}) ${beyond} (cast(${after.at} as timestamptz), cast(${after.id} as uuid))`);
  }
  const rows = (await keyed.orderBy(time, order.direction).orderBy(id, order.direction).limit(page.limit + 1).execute()) as Array<O & { [PAGE_KEY]: string }>;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    rows: shown.map(({ [PAGE_KEY]: _key, ...row }) => row as unknown as O),
    nextCursor: rows.length > page.limit && last ? encodePageCursor({ at: last[PAGE_KEY], id: last.id }) : null,
  };
}

/** A page of a list known to be empty (no vault to look in): its cursor is still checked. */
export function emptyPage<Row>(page: PageRequest): Page<Row> {
  if (page.cursor) decodePageCursor(page.cursor);
  return { rows: [], nextCursor: null };
}

/** Opaque to clients: base64url of the row's exact instant and id. */
export function encodePageCursor(after: PageAfter): string {
  return Buffer.from(JSON.stringify([after.at, after.id])).toString('base64url');
}

/** The row a next_cursor names; anything else is a 400 `invalid_cursor`, before the store is asked. */
export function decodePageCursor(cursor: string): PageAfter {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if (typeof at === 'string' && typeof id === 'string' && isInstant(at) && UUID.test(id)) return { at, id };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new BadRequestError('cursor is not a next_cursor of a previous page', 'invalid_cursor');
}

/** UTC text with microseconds naming a real calendar instant (no 31 February, no hour 25). */
function isInstant(text: string): boolean {
  if (!INSTANT.test(text)) return false;
  const seconds = text.slice(0, 19);
  const date = new Date(`${seconds}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === seconds;
}
