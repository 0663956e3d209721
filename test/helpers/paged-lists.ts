// Every list of the APIs, seeded with rows written at the same instant and at instants a microsecond
// apart, read page after page with small pages: each row must appear exactly once, in the list's order.
// The instants are written into the store as text with microseconds, as PostgreSQL keeps them (its
// now() has microseconds, and every row of one transaction shares it); lists that are not paged are
// read whole and held to the same order.
import { sql } from 'kysely';
import { expect } from 'vitest';
import { randomHex } from '../../src/identity/tokens.js';
import { PASSWORD, consoleCall, seedWorkspace, signIn, type SeededWorkspace, type TestApp } from './app.js';

/**
 * The instants rows are written at, in store text: six rows share one instant, others sit a microsecond
 * either side of it, on the millisecond itself and at its last microsecond (what a cursor that kept only
 * milliseconds would confuse), and one in the next millisecond. Fixed dates: nothing reads the machine's.
 */
export const PAGING_INSTANTS: readonly string[] = [
  '2031-05-06T07:08:09.124000Z',
  '2031-05-06T07:08:09.123456Z',
  '2031-05-06T07:08:09.123000Z',
  '2031-05-06T07:08:09.123456Z',
  '2031-05-06T07:08:09.122999Z',
  '2031-05-06T07:08:09.123457Z',
  '2031-05-06T07:08:09.123456Z',
  '2031-05-06T07:08:09.123999Z',
  '2031-05-06T07:08:09.123456Z',
  '2031-05-06T07:08:09.123000Z',
  '2031-05-06T07:08:09.123455Z',
  '2031-05-06T07:08:09.123456Z',
  '2031-05-06T07:08:09.123456Z',
];

/** A seeded row and what orders it in its list: `${instant} ${id}` for lists kept in time order. */
export interface SeededRow {
  id: string;
  sortKey: string;
}

export interface ListPage {
  ids: string[];
  nextCursor: string | null;
}

export interface ListUnderTest {
  name: string;
  /** Ascending or descending by sortKey (time lists: by instant, then id, both the same way). */
  order: 'asc' | 'desc';
  /** Lists without next_cursor answer everything at once; they are read whole. */
  paged: boolean;
  /** The list's path as /openapi.json writes it (`/api/signals/{signal_id}/evaluations`), when it is one route. */
  route?: string;
  seed(instants: readonly string[]): Promise<SeededRow[]>;
  read(limit: number, cursor: string | null): Promise<{ statusCode: number; body: string; page: ListPage }>;
}

/** The store value of an instant: timestamptz from its ISO text, microseconds kept. */
export function at(instant: string) {
  return sql<Date>`cast(${instant} as timestamptz)`;
}

export function timeKey(instant: string, id: string): string {
  return `${instant} ${id}`;
}

/** Every page of the list at `limit` rows a page, following next_cursor; fails past a bound of pages. */
export async function readAllPages(list: ListUnderTest, limit: number, maxPages: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const { statusCode, body, page } = await list.read(limit, cursor);
    expect([list.name, limit, statusCode], body).toEqual([list.name, limit, 200]);
    if (list.paged) expect(page.ids.length, `${list.name}: a page holds at most limit rows`).toBeLessThanOrEqual(limit);
    ids.push(...page.ids);
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error(`${list.name}: still a next_cursor after ${maxPages} pages of ${limit}`);
}

/** Seeds the list and reads it at each page size: every seeded row exactly once, in order. */
export async function expectEveryRowOnceInOrder(list: ListUnderTest, instants: readonly string[], pageSizes: readonly number[]): Promise<void> {
  const seeded = await list.seed(instants);
  const expected = [...seeded].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0)).map((row) => row.id);
  if (list.order === 'desc') expected.reverse();
  const seededIds = new Set(expected);
  for (const limit of list.paged ? pageSizes : [pageSizes[0]!]) {
    const all = await readAllPages(list, limit, expected.length + 5);
    // Nothing shown twice, rows the test did not write included (a personal vault, the seeded members).
    expect(new Set(all).size, `${list.name} at ${limit} a page: a row shown twice`).toBe(all.length);
    expect(all.filter((id) => seededIds.has(id)), `${list.name} at ${limit} a page`).toEqual(expected);
  }
}

/** Cursors that are not a next_cursor: each is 400 invalid_cursor, never a 500 or a page. */
export const MALFORMED_CURSORS: readonly string[] = [
  'garbage',
  '%00',
  Buffer.from('["yesterday","9b2a4c7e-0000-4000-8000-000000000000"]').toString('base64url'),
  Buffer.from('["2031-02-31T00:00:00.000000Z","9b2a4c7e-0000-4000-8000-000000000000"]').toString('base64url'),
  Buffer.from('["2031-05-06T07:08:09.1234567Z","9b2a4c7e-0000-4000-8000-000000000000"]').toString('base64url'),
  Buffer.from('["2031-05-06T25:08:09.123456Z","9b2a4c7e-0000-4000-8000-000000000000"]').toString('base64url'),
  Buffer.from('["2031-05-06T07:08:09.123456Z","not-a-uuid"]').toString('base64url'),
  Buffer.from('["2031-05-06T07:08:09.123456Z","9b2a4c7e-0000-4000-8000-00000000000g"]').toString('base64url'),
  Buffer.from('[1,2]').toString('base64url'),
  Buffer.from('{}').toString('base64url'),
  Buffer.from('2031-05-06T07:08:09.123Z|9b2a4c7e-0000-4000-8000-000000000000').toString('base64url'),
];

export async function expectMalformedCursorsRefused(list: ListUnderTest): Promise<void> {
  for (const cursor of MALFORMED_CURSORS) {
    const { statusCode, body } = await list.read(2, cursor);
    expect([list.name, cursor, statusCode, JSON.parse(body).code]).toEqual([list.name, cursor, 400, 'invalid_cursor']);
  }
}

/** Context for building lists: a fresh workspace per list, so each list holds only what it seeds. */
export interface ListContext {
  t: TestApp;
  workspace: SeededWorkspace;
  cookie: string;
}

export async function listContext(t: TestApp): Promise<ListContext> {
  const workspace = await seedWorkspace(t.services);
  return { t, workspace, cookie: await signIn(t.app, workspace.members.luminary.email, PASSWORD) };
}

/** A GET of a console list whose answer holds its rows under `field` (members: `user_id` for id). */
export function consoleList(ctx: ListContext, path: string, field: string) {
  return async (limit: number, cursor: string | null) => {
    // A limit of 0 reads a list that is answered whole, without paging parameters.
    const query = [...(limit > 0 ? [`limit=${limit}`] : []), ...(cursor !== null ? [`cursor=${encodeURIComponent(cursor)}`] : [])];
    const url = query.length ? `${path}${path.includes('?') ? '&' : '?'}${query.join('&')}` : path;
    const response = await consoleCall(ctx.t, ctx.cookie, 'GET', url);
    const body = response.statusCode === 200 ? (response.json() as Record<string, unknown>) : {};
    const rows = (body[field] as Array<{ id?: string; user_id?: string }> | undefined) ?? [];
    return {
      statusCode: response.statusCode,
      body: response.body,
      page: { ids: rows.map((r) => (r.id ?? r.user_id)!), nextCursor: (body.next_cursor as string | null | undefined) ?? null },
    };
  };
}

export function uniqueTag(): string {
  return randomHex(4);
}
