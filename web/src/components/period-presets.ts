// The current period of a comparison, as the browser computes it: a calendar month, quarter or year
// (this one or the one before) in the workspace's time zone, or a range of days typed by hand. Ranges
// are half-open [from, to) dates, which the server reads as midnights in that same zone, so a month is
// compared with the whole month before it (a current period not over yet is marked partial).

export const PERIOD_PRESETS = ['this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PRESET_LABELS: Readonly<Record<PeriodPreset, string>> = {
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  last_quarter: 'Last quarter',
  this_year: 'This year',
  last_year: 'Last year',
  custom: 'Custom range',
};

/** A calendar date: year, month 1–12, day 1–31. */
interface CalendarDate { year: number; month: number; day: number }

/** The date it is at `now` in `timeZone` (an IANA name). */
export function dateIn(now: Date, timeZone: string): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** YYYY-MM-DD of the first day of a month given as a month count (year × 12 + month − 1), which may run past December or before January. */
function firstOf(monthIndex: number): string {
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
}

/** [from, to) of a preset at `now` in `timeZone`. */
export function presetRange(preset: Exclude<PeriodPreset, 'custom'>, now: Date, timeZone: string): [string, string] {
  const today = dateIn(now, timeZone);
  const month = today.year * 12 + today.month - 1;
  const quarter = month - ((today.month - 1) % 3);
  const year = today.year * 12;
  const span = (start: number, months: number): [string, string] => [firstOf(start), firstOf(start + months)];
  switch (preset) {
    case 'this_month':
      return span(month, 1);
    case 'last_month':
      return span(month - 1, 1);
    case 'this_quarter':
      return span(quarter, 3);
    case 'last_quarter':
      return span(quarter - 3, 3);
    case 'this_year':
      return span(year, 12);
    case 'last_year':
      return span(year - 12, 12);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date `days` after (or before) a YYYY-MM-DD date: calendar arithmetic, no time zone involved. */
export function addDays(date: string, days: number): string {
  const [, y, m, d] = DATE.exec(date)!;
  return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + days)).toISOString().slice(0, 10);
}

/**
 * [from, to) of a range typed as its first and last days (both included, as people say them), or why
 * it is not one. The server checks it again; this only spares a round trip for an empty field.
 */
export function customRange(first: string, last: string): [string, string] | string {
  if (!DATE.test(first) || !DATE.test(last)) return 'Give the first and the last day of the period.';
  if (last < first) return 'The last day comes before the first.';
  return [first, addDays(last, 1)];
}

const day = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** "1 May 2026 – 31 May 2026" for [2026-05-01, 2026-06-01): the last day is the one before `to`. */
export function rangeText([from, to]: readonly string[]): string {
  const first = from!.slice(0, 10);
  const toDate = to!.slice(0, 10);
  // A bound with a time of day other than midnight is shown as it is.
  const midnight = (b: string) => b.length <= 10 || /T00:00:00(\.0+)?$/.test(b);
  if (!midnight(from!) || !midnight(to!)) return `${from} – ${to} (end excluded)`;
  const last = addDays(toDate, -1);
  return first === last ? day(first) : `${day(first)} – ${day(last)}`;
}
