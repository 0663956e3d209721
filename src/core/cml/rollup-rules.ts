// The text values of a rollup: `refresh:` (when it is rebuilt) and `build_range:` (which rows a build
// reads). Each reader returns the value, or the reason it is refused, phrased to be shown as it is.
import { Cron } from 'croner';
import { RANGE_UNITS, type RangeUnit, type RollupBuildRange, type RollupRefresh } from '../semantic/rollup-model.js';

export type Read<T> = { readonly value: T } | { readonly error: string };

const INTERVAL_SECONDS = { minute: 60, hour: 3600, day: 86_400, week: 604_800 } as const;
const INTERVAL = /^(\d{1,6})\s+(minute|hour|day|week)s?$/i;
const REFRESH_FORMS = '`on_deploy`, an interval such as "1 hour" or "15 minutes", or a cron expression of five fields such as "0 3 * * *"';
/** A fixed instant to look at cron runs from: the check must not depend on the day a model is compiled. */
const CRON_FROM = new Date('2001-01-01T00:00:00Z');

/**
 * `on_deploy` (a name), an interval (`"1 hour"`) or a five-field cron (`"0 3 * * *"`, read in the
 * rollup's zone). Six fields would add seconds, and a table is not rebuilt more than once a minute.
 */
export function readRefresh(written: string, quoted: boolean, timezone: string): Read<RollupRefresh> {
  if (!quoted) return written === 'on_deploy' ? { value: { kind: 'deploy' } } : { error: `\`${written}\` is not a refresh rule; write ${REFRESH_FORMS}` };
  const text = written.trim();
  const interval = INTERVAL.exec(text);
  if (interval) {
    const amount = Number(interval[1]);
    if (amount < 1) return { error: `a refresh interval of ${text} never comes round; write at least "1 minute"` };
    const unit = interval[2]!.toLowerCase() as keyof typeof INTERVAL_SECONDS;
    return { value: { kind: 'interval', seconds: amount * INTERVAL_SECONDS[unit], text } };
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length === 6) return { error: `"${text}" has six fields, the first for seconds; a rollup is rebuilt at most once a minute, so write five (minute hour day month weekday)` };
  if (fields.length !== 5) return { error: `"${text}" is neither an interval nor a cron expression; write ${REFRESH_FORMS}` };
  try {
    if (new Cron(text, { paused: true, timezone }).nextRuns(1, CRON_FROM).length === 0) return { error: `the cron expression "${text}" never runs` };
  } catch (error) {
    return { error: `"${text}" is not a valid cron expression (${(error as Error).message}); write five fields such as "0 3 * * *" (03:00 every day)` };
  }
  return { value: { kind: 'cron', expression: text } };
}

const LAST = /^last\s+(\d{1,4})\s+([a-z]+)$/i;
const FROM = /^from\s+(\d{4}-\d{2}-\d{2})$/i;
const RANGE_FORMS = '"last 24 months" (the last complete units and the current one) or "from 2024-01-01" (a date in the rollup\'s zone)';

export function readBuildRange(written: string): Read<RollupBuildRange> {
  const text = written.trim();
  const last = LAST.exec(text);
  if (last) {
    const amount = Number(last[1]);
    const unit = last[2]!.toLowerCase().replace(/s$/, '');
    if (!(RANGE_UNITS as readonly string[]).includes(unit)) return { error: `\`${last[2]}\` is not a unit of a build range; use one of ${RANGE_UNITS.join(', ')}` };
    if (amount < 1) return { error: `"${text}" holds no rows; write at least "last 1 ${unit}"` };
    return { value: { kind: 'last', amount, unit: unit as RangeUnit } };
  }
  const from = FROM.exec(text);
  if (from) {
    const date = from[1]!;
    const parsed = new Date(`${date}T00:00:00Z`);
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) return { error: `${date} is not a date of the calendar; write it as YYYY-MM-DD` };
    return { value: { kind: 'from', date } };
  }
  return { error: `"${text}" is not a build range; write ${RANGE_FORMS}` };
}
