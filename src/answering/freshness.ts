import { wallClock } from '../core/semantic/time.js';

/**
 * The date of the latest value behind an answer, as the workspace sees it: an instant (`…Z`, or with an
 * offset) is read in the workspace time zone, so an order at 23:30 UTC is "tomorrow" in Tokyo; a date
 * or a naive timestamp already holds its wall-clock date.
 */
export function freshnessDate(value: unknown, timezone: string): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  if (/(?:Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10) {
    const instant = new Date(value);
    if (!Number.isNaN(instant.getTime())) return wallClock(instant, timezone).toISOString().slice(0, 10);
  }
  return value.slice(0, 10);
}
