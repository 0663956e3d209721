import { wallClock } from '../core/semantic/time.js';

/**
 * The date of the latest value behind an answer, as the workspace sees it. A timestamp is an instant:
 * with its offset (`…Z`, `…+02:00`), or without one, taken as UTC as the compiler takes warehouse
 * timestamps (docs/queries.md). It is read in the workspace time zone, so an order at 23:30 UTC is
 * "tomorrow" in Tokyo, the same day the period filters put it in. A date is already a date.
 */
export function freshnessDate(value: unknown, timezone: string): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) {
    const zoned = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/.test(value.slice(10));
    const instant = new Date(zoned ? value : `${value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(instant.getTime())) return wallClock(instant, timezone).toISOString().slice(0, 10);
  }
  return value.slice(0, 10);
}
