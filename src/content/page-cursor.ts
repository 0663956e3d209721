// Cursors of content lists: the (created_at, id) of the last row of a page, opaque to clients.
import { BadRequestError } from '../core/errors.js';
import type { PageAfter } from '../store/scenes-repo.js';

export function encodePageCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
}

export function decodePageCursor(cursor: string): PageAfter {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const date = new Date(at as string);
    if (typeof at === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id) && !Number.isNaN(date.getTime())) return { at: date, id };
  } catch {
    // falls through to the 400 below
  }
  throw new BadRequestError('cursor is not a next_cursor of a previous page', 'invalid_cursor');
}
