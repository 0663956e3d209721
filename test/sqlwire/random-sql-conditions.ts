// Random conditions for the random SQL queries: on a dimension (as its column, a time grain or a
// `::date` of it) or on a measure, with constants written the ways SQL clients write them. Each constant
// carries the value C is given for it, as PostgreSQL reads the literal against the column: a date column
// compared with '2025-03-01 10:00:00' compares with the date 2025-03-01, `DATE '…'` is a date whatever
// follows the day, a quoted number is a number.
import { formatUtcTimestamp } from '../../src/core/demo/index.js';
import { pickOne, type Rng } from '../../src/core/demo/prng.js';
import type { DimensionSpec, MeasureSpec } from './demo-sql-columns.js';
import { quote, type Condition, type ConditionColumn, type LikeMode, type LikeShape, type Value } from './semantic-sql.js';

const chance = (rng: Rng, p: number) => rng() < p;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const GRAINS = ['year', 'quarter', 'month', 'week', 'day', 'hour'] as const;
const DAY_MS = 86_400_000;

/** A dimension as a column of a condition or of the SELECT list: itself, a time grain, or its day as a date. */
export function dimensionColumn(rng: Rng, spec: DimensionSpec, name: (column: string) => string, clause: 'select' | 'where'): ConditionColumn {
  const ref = name(spec.name);
  if (spec.type !== 'timestamp') return { sql: ref, field: spec.name, type: spec.type === 'string' ? 'text' : 'number' };
  const form = pickOne(rng, clause === 'select' ? ['trunc', 'trunc', 'trunc', 'date', 'date', 'cast', 'truncDate', 'raw'] : ['raw', 'raw', 'raw', 'trunc', 'trunc', 'date', 'cast', 'truncDate', 'timestamp']);
  const grain = pickOne(rng, clause === 'select' ? GRAINS.slice(0, 5) : GRAINS);
  const unit = chance(rng, 0.15) ? grain.toUpperCase() : chance(rng, 0.1) ? `${grain}s` : grain;
  switch (form) {
    case 'raw':
      return { sql: ref, field: spec.name, type: 'timestamp' };
    case 'timestamp':
      return { sql: `${ref}::timestamp`, field: spec.name, type: 'timestamp' };
    case 'trunc':
      return { sql: `${pickOne(rng, ['DATE_TRUNC', 'date_trunc'])}('${unit}', ${ref})`, field: `${spec.name}.${grain}`, type: 'timestamp' };
    case 'date':
      return { sql: `${ref}::date`, field: `${spec.name}.day`, type: 'date' };
    case 'cast':
      return { sql: `CAST(${ref} AS date)`, field: `${spec.name}.day`, type: 'date' };
    default: {
      // A grain's start as a date: the grain itself when it is a day or longer, else the day.
      const coarse = grain === 'hour' ? 'day' : grain;
      return { sql: `DATE_TRUNC('${unit}', ${ref})::date`, field: `${spec.name}.${coarse}`, type: 'date' };
    }
  }
}

/** A condition on one dimension (`column`: as that column, else one of its forms), nested `depth` deep at most. */
export function conditionOn(rng: Rng, spec: DimensionSpec, name: (column: string) => string, now: Date, depth: number, column?: ConditionColumn): Condition {
  if (depth > 0 && chance(rng, 0.2)) {
    const items = Array.from({ length: int(rng, 2, 3) }, () => conditionOn(rng, spec, name, now, depth - 1, column ?? (chance(rng, 0.7) ? undefined : dimensionColumn(rng, spec, name, 'where'))));
    // Conditions on one column: AND of several mostly leaves no row, OR mostly keeps some.
    return { kind: chance(rng, 0.35) ? 'and' : 'or', items };
  }
  const target = column ?? dimensionColumn(rng, spec, name, 'where');
  const value = () => valueFor(rng, spec, target, now);
  return leaf(rng, target, value, spec);
}

function leaf(rng: Rng, column: ConditionColumn, value: () => Value, spec?: DimensionSpec): Condition {
  const positive = (): Condition & { kind: 'compare' | 'in' | 'between' } => {
    const which = rng();
    if (which < 0.4) return { kind: 'compare', column, op: '=', value: value() };
    if (which < 0.7) return { kind: 'in', column, values: Array.from({ length: int(rng, 1, 3) }, value), not: false };
    return { kind: 'between', column, ...bounds(rng, value), not: false };
  };
  // An instant rarely equals a constant: times (and measures) are mostly compared by order.
  const ordered = column.measure === true || (column.type === 'timestamp' && !/\.(year|quarter|month|week|day)$/.test(column.field));
  const kinds = {
    like: column.type === 'text' && spec ? 5 : 0,
    equality: column.measure ? 0.5 : ordered ? 1 : 5,
    order: ordered ? 8 : 3,
    in: column.measure ? 0.5 : ordered ? 1 : 3,
    between: 3,
    null: 1.5,
    orNull: 2,
  };
  let roll = rng() * Object.values(kinds).reduce((a, b) => a + b, 0);
  const kind = (Object.keys(kinds) as Array<keyof typeof kinds>).find((k) => (roll -= kinds[k]) < 0) ?? 'orNull';
  switch (kind) {
    case 'like':
      return like(rng, column, spec!);
    case 'equality':
      return { kind: 'compare', column, op: pickOne(rng, ['=', '=', '<>'] as const), value: value() };
    case 'order':
      return { kind: 'compare', column, op: pickOne(rng, ['<', '<=', '>', '>='] as const), value: value() };
    case 'in':
      return { kind: 'in', column, values: Array.from({ length: int(rng, 1, 3) }, value), not: chance(rng, 0.35) };
    case 'between':
      return { kind: 'between', column, ...bounds(rng, value), not: chance(rng, 0.3) };
    case 'null':
      return { kind: 'null', column, isNull: chance(rng, 0.3) };
    case 'orNull':
      return { kind: 'orNull', positive: positive() };
  }
}

/** BETWEEN's bounds, mostly low to high (the other way round matches nothing, in both). */
function bounds(rng: Rng, value: () => Value): { low: Value; high: Value } {
  const [a, b] = [value(), value()];
  const ordered = typeof a.c === 'number' ? a.c <= (b.c as number) : String(a.c) <= String(b.c);
  return ordered || chance(rng, 0.1) ? { low: a, high: b } : { low: b, high: a };
}

function like(rng: Rng, column: ConditionColumn, spec: DimensionSpec): Condition {
  const roll = rng();
  if (roll < 0.05) return { kind: 'like', column, shape: 'any', text: '', mode: chance(rng, 0.5) ? 'like' : 'ilike', not: false };
  if (roll < 0.12) {
    // No wildcard: an equality, case-sensitive, so LIKE (ILIKE only for text without cased letters).
    return { kind: 'like', column, shape: 'equals', text: pickOne(rng, spec.values ?? ['x']), mode: 'like', not: chance(rng, 0.3) };
  }
  const shape: LikeShape = pickOne(rng, ['contains', 'contains', 'startsWith', 'endsWith']);
  const text = likeText(rng, spec, shape);
  const caseless = text.toLowerCase() === text.toUpperCase();
  const ascii = /^[\x20-\x7e]*$/.test(text);
  // LOWER()/UPPER() only over ASCII: a database's case mapping of other letters depends on its locale.
  const modes: LikeMode[] = caseless ? ['like', 'like', 'ilike'] : ['ilike', 'ilike', ...(ascii ? (['lower', 'upper'] as const) : [])];
  const mode = pickOne(rng, modes);
  if (shape === 'contains' && chance(rng, 0.15)) return { kind: 'orNull', positive: { kind: 'like', column, shape, text, mode, not: false } };
  return { kind: 'like', column, shape, text, mode, not: shape === 'contains' && chance(rng, 0.3) };
}

/** A piece of one of the column's values, in the place the shape looks (so that most patterns match), in any case. */
function likeText(rng: Rng, spec: DimensionSpec, shape: LikeShape): string {
  if (spec.fragments && chance(rng, 0.4)) return pickOne(rng, spec.fragments);
  const value = pickOne(rng, spec.values ?? ['x']);
  const length = Math.min(value.length, int(rng, 1, 4));
  const start = shape === 'startsWith' ? 0 : shape === 'endsWith' ? value.length - length : int(rng, 0, value.length - length);
  const piece = value.slice(start, start + length);
  return pickOne(rng, [piece, piece, piece.toUpperCase(), piece.toLowerCase()]);
}

/**
 * A HAVING condition on a measure, with thresholds about the measure's value in one group when the
 * answer is grouped by `grouped` (the fields of the selected dimensions).
 */
export function measureCondition(rng: Rng, spec: MeasureSpec, grouped: readonly string[], name: (column: string) => string): Condition {
  const column = measureColumn(rng, spec, name);
  const groups = Math.min(1_000, grouped.reduce((product, field) => product * groupsOf(field), 1));
  const scale = spec.total !== undefined ? Math.max(1, spec.total / groups) : spec.typical!;
  const integer = spec.integer || spec.type === 'count' || spec.type === 'count_distinct';
  const value = (): Value => {
    const raw = scale * pickOne(rng, [0.1, 0.3, 0.5, 0.8, 1, 1.5, 3]);
    const n = integer ? Math.round(raw) : chance(rng, 0.5) ? Math.round(raw) : Math.round(raw * 100) / 100;
    return numberValue(rng, n);
  };
  if (chance(rng, 0.2)) {
    return { kind: chance(rng, 0.6) ? 'and' : 'or', items: [leaf(rng, column, value), leaf(rng, column, value)] };
  }
  return leaf(rng, column, value);
}

/** About how many values a field takes in one member's rows. */
function groupsOf(field: string): number {
  const grain = /\.(year|quarter|month|week|day|hour)$/.exec(field)?.[1];
  if (grain) return { year: 3, quarter: 9, month: 25, week: 105, day: 500, hour: 1_000 }[grain]!;
  const column = field.split('.').at(-1)!;
  const counts: Record<string, number> = { status: 5, channel: 4, ship_region: 1, region: 4, segment: 4, country: 20, category: 9, quantity: 5, created_at: 1_000, signup_at: 1_000 };
  return counts[column] ?? 200;
}

function valueFor(rng: Rng, spec: DimensionSpec, column: ConditionColumn, now: Date): Value {
  if (column.type === 'text') {
    const text = pickOne(rng, spec.values ?? ['x']);
    return { literal: chance(rng, 0.1) ? `${quote(text)}::text` : quote(text), param: text, c: text };
  }
  if (column.type === 'number') {
    const [min, max] = spec.range ?? [0, 100];
    const n = spec.integer || chance(rng, 0.6) ? int(rng, min, Math.min(max, min + 20)) : Math.round((min + rng() * (max - min)) * 100) / 100;
    return numberValue(rng, n);
  }
  return timeValue(rng, column, now);
}

function numberValue(rng: Rng, n: number): Value {
  const text = String(n);
  const literal = pickOne(rng, [text, text, text, `'${text}'`, Number.isInteger(n) ? `${text}.00` : `${text}0`, `${text}::numeric`]);
  return { literal, param: text, c: n };
}

/** A date or timestamp constant within the data's two years (and a little either side). */
function timeValue(rng: Rng, column: ConditionColumn, now: Date): Value {
  const from = now.getTime() - 2 * 365 * DAY_MS - 30 * DAY_MS;
  const at = formatUtcTimestamp(from + Math.floor(rng() * (2 * 365 + 60)) * DAY_MS + int(rng, 0, 86_399) * 1000);
  const [day, time] = [at.slice(0, 10), at.slice(11, 19)];
  // Grain starts compare equal to truncated values; other instants only order them.
  const grain = column.field.split('.').at(-1);
  const month = Number(day.slice(5, 7));
  const quarterStart = `${day.slice(0, 5)}${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
  const start = grain === 'year' ? `${day.slice(0, 4)}-01-01` : grain === 'quarter' ? quarterStart : grain === 'month' ? `${day.slice(0, 7)}-01` : day;
  const date = chance(rng, 0.5) ? start : day;
  if (column.type === 'date') {
    // PostgreSQL reads a timestamp's text as a date by its day: the time is dropped.
    return pickOne<Value>(rng, [
      { literal: quote(date), param: date, c: date },
      { literal: `DATE ${quote(date)}`, param: date, c: date, cast: 'date' },
      { literal: quote(`${date} ${time}`), param: `${date} ${time}`, c: date },
    ]);
  }
  return pickOne<Value>(rng, [
    { literal: quote(date), param: date, c: date },
    { literal: quote(`${date} ${time}`), param: `${date} ${time}`, c: `${date}T${time}` },
    { literal: `TIMESTAMP ${quote(`${date} ${time}`)}`, param: `${date} ${time}`, c: `${date}T${time}`, cast: 'timestamp' },
    { literal: `DATE ${quote(date)}`, param: date, c: date, cast: 'date' },
    { literal: `${quote(date)}::date`, param: date, c: date, cast: 'date' },
    { literal: `${quote(`${date} 00:00:00`)}::timestamp`, param: `${date} 00:00:00`, c: date, cast: 'timestamp' },
    // A typed date constant is a date: midnight, whatever time its text has (`$1::date` alike).
    { literal: `DATE ${quote(`${date} ${time}`)}`, param: `${date} ${time}`, c: date, cast: 'date' },
  ]);
}

/** MEASURE(m), or the aggregate of the measure's type. */
export function measureColumn(rng: Rng, spec: MeasureSpec, name: (column: string) => string): ConditionColumn {
  const ref = name(spec.name);
  const aggregate = { sum: `SUM(${ref})`, count: `COUNT(${ref})`, count_distinct: `COUNT(DISTINCT ${ref})`, avg: `AVG(${ref})`, min: `MIN(${ref})`, max: `MAX(${ref})`, number: undefined }[spec.type];
  const sql = aggregate && chance(rng, 0.4) ? aggregate : `${pickOne(rng, ['MEASURE', 'measure'])}(${ref})`;
  return { sql, field: spec.name, type: 'number', measure: true };
}
