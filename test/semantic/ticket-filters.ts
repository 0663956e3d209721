// Random filters over the tickets model (tickets.ts): every operator on fields that hold NULLs, nested
// in and/or/not groups, for the properties of negation. Dimension filters and measure filters apart,
// since a group may not mix them.
import fc from 'fast-check';
import type { Filter } from '../../src/core/semantic/query.js';
import { CHANNELS } from './tickets.js';

/** Short text with LIKE's special characters and the escape character among letters of the channels. */
const fragment = fc.string({ unit: fc.constantFrom('w', 'e', 'b', 'W', 'a', 'o', '_', '%', '!', '0', ' '), maxLength: 3 });
const fragments = fc.oneof(fragment, fc.array(fragment, { minLength: 1, maxLength: 2 }));
const channel = fc.constantFrom(...CHANNELS, 'zzz');
const priority = fc.integer({ min: 0, max: 6 });
const day = fc.date({ min: new Date('2023-12-01T00:00:00Z'), max: new Date('2025-07-01T00:00:00Z'), noInvalidDate: true });
/** A date, a local date-time or an instant, as a user may write one. */
const time = fc.oneof(
  day.map((d) => d.toISOString().slice(0, 10)),
  day.map((d) => d.toISOString().slice(0, 19)),
  day.map((d) => d.toISOString()),
);
const period = fc.tuple(fc.integer({ min: 1, max: 20 }), fc.constantFrom('day', 'week', 'month', 'quarter', 'year')).map(([n, unit]) => `${n} ${unit}s`);
const unit = fc.constantFrom('day', 'week', 'month', 'quarter', 'year');

const op = (...operators: string[]) => fc.constantFrom(...operators);
const share = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);

/** One field filter on a ticket field, any operator that field takes. */
export const ticketLeaf: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ field: fc.constant('channel'), operator: op('equals', 'notEquals', 'in', 'notIn', '=', '!='), value: fc.array(channel, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('channel'), operator: op('equals', 'notEquals'), value: fc.constant(null) }),
  fc.record({ field: fc.constant('channel'), operator: op('contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith'), value: fragments }),
  fc.record({ field: op('channel', 'priority', 'opened_at', 'minutes', 'escalated', 'opened_at.month'), operator: op('isNull', 'notNull') }),
  fc.record({ field: fc.constant('priority'), operator: op('equals', 'notEquals', 'gt', 'gte', 'lt', 'lte'), value: priority }),
  fc.record({ field: fc.constant('priority'), operator: op('in', 'notIn'), value: fc.array(priority, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('priority'), operator: op('between', 'notBetween'), value: fc.tuple(priority, priority) }),
  fc.record({ field: fc.constant('minutes'), operator: op('gt', 'lte'), value: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ field: fc.constant('minutes'), operator: op('between', 'notBetween'), value: fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })) }),
  fc.record({ field: fc.constant('escalated'), operator: op('equals', 'notEquals'), value: fc.boolean() }),
  fc.record({ field: op('opened_at', 'opened_at.month'), operator: op('before', 'after', 'onOrBefore', 'onOrAfter', 'gt', 'lte'), value: time }),
  fc.record({ field: op('opened_at', 'opened_at.day'), operator: op('inDateRange', 'notInDateRange', 'between', 'notBetween'), value: fc.tuple(time, time) }),
  fc.record({ field: fc.constant('opened_at'), operator: op('inThePast', 'notInThePast'), value: period }),
  fc.record({ field: fc.constant('opened_at'), operator: op('inTheCurrent', 'notInTheCurrent'), value: unit }),
);

/** A filter tree of `leaf`s: and, or and not nested up to four deep. */
export function filterTree(leaf: fc.Arbitrary<Filter>): fc.Arbitrary<Filter> {
  return fc.letrec<{ filter: Filter }>((tie) => ({
    filter: fc.oneof(
      { maxDepth: 4, depthSize: 'small' },
      leaf,
      fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })),
      fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })),
      tie('filter').map((not) => ({ not })),
    ),
  })).filter;
}

export const ticketFilter = filterTree(ticketLeaf);

/** A filter on the measures of tickets grouped by channel: some groups have no minutes at all. */
export const ticketMeasureLeaf: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ field: op('ticket_count', 'urgent_count'), operator: op('equals', 'notEquals', 'gt', 'gte', 'lt', 'lte'), value: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ field: fc.constant('ticket_count'), operator: op('in', 'notIn'), value: fc.array(fc.integer({ min: 20, max: 50 }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ field: op('total_minutes', 'minutes_per_urgent_ticket'), operator: op('gt', 'lt', 'isNull', 'notNull'), value: fc.integer({ min: 0, max: 6_000 }) }).map((f) =>
    f.operator === 'isNull' || f.operator === 'notNull' ? { field: f.field, operator: f.operator } : f,
  ),
  fc.record({ field: fc.constant('urgent_share'), operator: op('between', 'notBetween'), value: fc.tuple(share, share) }),
);

export const ticketMeasureFilter = filterTree(ticketMeasureLeaf);
