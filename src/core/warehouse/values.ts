// Normalisation shared by the drivers, so that the same data reads as the same JSON on every engine
// (see WarehouseValue in types.ts). Inputs are the text forms engines send, or JS numbers and bigints.
import type { WarehouseValue } from './types.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A bigint as a number when exact, else its decimal text. */
export function fromBigInt(value: bigint): number | string {
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
}

/**
 * Integer or decimal text (`"12"`, `"-3.50"`) as a number within ±2^53, else the text unchanged.
 * NaN and the infinities stay text: JSON has no number for them.
 */
export function fromNumericText(text: string): number | string {
  const n = Number(text);
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) return text;
  return n;
}

/** A JS number, with the non-finite values (not representable in JSON) as text. */
export function fromNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?))?$/;

function millis(fraction: string | undefined): string {
  return (fraction ?? '').padEnd(3, '0').slice(0, 3);
}

/** `2024-01-02 03:04:05[.123456]` as `2024-01-02T03:04:05.123`; anything unusual (BC, infinity) unchanged. */
export function fromNaiveTimestampText(text: string): string {
  const m = DATE_TIME.exec(text);
  if (!m) return text;
  return `${m[1]}T${m[2]}.${millis(m[3])}`;
}

/** A timestamp with an offset (`…+05:30`, `…+00`, `…Z`) as the UTC instant `…Z`; unusual text unchanged. */
export function fromZonedTimestampText(text: string): string {
  const m = DATE_TIME.exec(text);
  if (!m) return text;
  const offset = normaliseOffset(m[4] ?? 'Z');
  const instant = new Date(`${m[1]}T${m[2]}.${millis(m[3])}${offset}`);
  return Number.isNaN(instant.getTime()) ? text : instant.toISOString();
}

function normaliseOffset(offset: string): string {
  if (offset === 'Z') return 'Z';
  const digits = offset.slice(1).replace(/:/g, '');
  // Second-level offsets (historic zones) are beyond what Date parses; they are rare enough to round.
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, '0')}`;
}

/** `2024-01-02` (possibly followed by a time) as `2024-01-02`; unusual text unchanged. */
export function fromDateText(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|[ T])/.exec(text);
  return m ? m[1]! : text;
}

/** Microseconds since the epoch as `YYYY-MM-DDTHH:mm:ss.SSS` (naive) or with `Z` (an instant). */
export function fromEpochMicros(micros: bigint, zoned: boolean): string | null {
  // Exact integer arithmetic on a double while the count fits one (years 1685 to 2255), else bigints.
  const n = Number(micros);
  const ms = Number.isSafeInteger(n) ? (n - (((n % 1000) + 1000) % 1000)) / 1000 : Number(micros / 1000n) - (micros % 1000n < 0n ? 1 : 0);
  const iso = isoOfEpochMillis(ms);
  return iso === null || zoned ? iso : iso.slice(0, -1);
}

const DAY_MS = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
// The date part of the last day formatted: a result's timestamps mostly share days, and Date's
// toISOString is most of what formatting a timestamp costs.
let lastDay = Number.NaN;
let lastDayText: string | null = null;

/**
 * Milliseconds since the epoch as Date.prototype.toISOString writes them (`…T…Z`), for years 0 to
 * 9999; null outside them.
 */
export function isoOfEpochMillis(ms: number): string | null {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    const date = new Date(day * DAY_MS);
    const year = date.getUTCFullYear();
    lastDay = day;
    lastDayText = Number.isNaN(year) || year < 0 || year > 9999 ? null : date.toISOString().slice(0, 11);
  }
  if (lastDayText === null) return null;
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  return `${lastDayText}${pad2((rest - (rest % 60)) / 60)}:${pad2(rest % 60)}:${pad2(second)}.${pad3(milli)}Z`;
}

/** Days since the epoch as `YYYY-MM-DD`. */
export function fromEpochDays(days: number): string | null {
  return isoOfEpochMillis(days * DAY_MS)?.slice(0, 10) ?? null;
}

/** The fallback for values no driver rule covers: JSON-ready primitives pass, the rest become text. */
export function fallbackValue(value: unknown): WarehouseValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value === 'bigint') return fromBigInt(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'object') {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
  return String(value);
}
