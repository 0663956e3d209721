import { describe, expect, it } from 'vitest';
import { compileModel } from '../core/cml/index.js';
import type { GovernedPlan, ResolvedPeriod } from '../core/answer/plan.js';
import { decideCoverage } from './coverage.js';

const CML = `
node tickets {
  connection: ops
  table: ops.tickets
  dimension id        { type: number  primary_key: true }
  dimension opened_at { type: timestamp  label: "Opened at" }
  measure ticket_count { type: count }
  measure open_count   { type: count  filter: \${TABLE}.status = 'open' }
}
reveal support {
  domain: operations
  base: tickets
  time: tickets.opened_at
  metric tickets      { label: "Tickets"  measure: tickets.ticket_count }
  metric open_tickets { label: "Open tickets"  snapshot: true  measure: tickets.open_count }
  metric queue        { label: "Queue"  time_scope: stock  measure: tickets.ticket_count }
}
`;
const model = compileModel([{ path: 'ops.cml', content: CML }]).model!;
const reveal = model.reveals.get('support')!;
const plan = (...metrics: string[]): GovernedPlan => ({ kind: 'governed', reveal: 'support', metrics, dimensions: [], filters: [], matchedBy: 'label' });
const period = (token: string): ResolvedPeriod => ({ token, start: '2025-06-01', end: '2025-07-01', phrase: token });
const fallback = period('last_30_days');

describe('decideCoverage', () => {
  it('uses the named period of a period-bound metric, and the default window with an assumption otherwise', () => {
    expect(decideCoverage(plan('tickets'), reveal, { asked: period('last_month'), fallback })).toEqual({ kind: 'covered', coverage: { kind: 'period', period: period('last_month') }, assumptions: [] });
    const assumed = decideCoverage(plan('tickets'), reveal, { asked: undefined, fallback });
    expect(assumed).toMatchObject({ kind: 'covered', coverage: { kind: 'period', period: fallback }, assumptions: [{ code: 'period_assumed' }] });
  });

  it('assumes no window when the question bounds time itself ("right now", a value naming a year)', () => {
    expect(decideCoverage(plan('tickets'), reveal, { asked: undefined, fallback, timeBounded: true })).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    expect(decideCoverage(plan('tickets'), reveal, { asked: period('last_month'), fallback, timeBounded: true })).toMatchObject({ coverage: { kind: 'period' } });
  });

  it('answers a snapshot as of now, with no assumed period, also for "today"', () => {
    for (const asked of [undefined, period('today')]) {
      expect(decideCoverage(plan('open_tickets'), reveal, { asked, fallback })).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    }
  });

  it.each(['last_month', 'yesterday', '2024', 'this_week'])('refuses a snapshot asked for %s', (token) => {
    const decision = decideCoverage(plan('open_tickets'), reveal, { asked: period(token), fallback });
    expect(decision).toMatchObject({ kind: 'refused', closest: [{ reveal: 'support', metric: 'open_tickets', label: 'Open tickets' }] });
    expect(decision.kind === 'refused' && decision.reason).toContain(`cannot be given for ${token.replaceAll('_', ' ')}`);
  });

  it('refuses a plan that mixes a snapshot with a period-bound metric, whatever the period', () => {
    for (const asked of [undefined, period('last_month')]) {
      const decision = decideCoverage(plan('tickets', 'open_tickets'), reveal, { asked, fallback });
      expect(decision).toEqual({
        kind: 'refused',
        reason: 'Open tickets is counted as of now and Tickets over a period, so they cannot be answered together; please ask about one at a time.',
        closest: [
          { reveal: 'support', metric: 'open_tickets', label: 'Open tickets' },
          { reveal: 'support', metric: 'tickets', label: 'Tickets' },
        ],
      });
    }
  });
});

describe('decideCoverage of a stock', () => {
  const time = (asked?: ResolvedPeriod, timeBounded = false) => ({ asked, fallback, timeBounded, timeLabel: 'Opened at' });

  it('counts every row, all time, when the question names no period, and says so', () => {
    const decision = decideCoverage(plan('queue'), reveal, time());
    expect(decision).toEqual({
      kind: 'covered',
      coverage: { kind: 'all_time' },
      assumptions: [{ code: 'all_time_assumed', message: 'The question names no period; Queue counts what exists rather than what happened in a window, so every row was counted (all time), not only the default window.' }],
    });
  });

  it('applies a named period to the time dimension, and says what that counts', () => {
    const decision = decideCoverage(plan('queue'), reveal, time(period('last_month')));
    expect(decision).toMatchObject({ kind: 'covered', coverage: { kind: 'period', period: period('last_month') }, assumptions: [{ code: 'period_applied_to_stock' }] });
    expect(decision.kind === 'covered' && decision.assumptions[0]!.message).toBe(
      'Queue counts what exists; with the period, only those whose "Opened at" falls in last month (2025-06-01 to 2025-06-30) are counted, not all that existed then.',
    );
  });

  it('"today" and "right now" mean the state now: every row, nothing assumed', () => {
    expect(decideCoverage(plan('queue'), reveal, time(period('today')))).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    expect(decideCoverage(plan('queue'), reveal, time(undefined, true))).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
  });

  it('beside a flow: one period for both when named, refused without one', () => {
    expect(decideCoverage(plan('queue', 'tickets'), reveal, time(period('last_month')))).toMatchObject({ kind: 'covered', coverage: { kind: 'period' } });
    for (const asked of [undefined, period('today')]) {
      expect(decideCoverage(plan('queue', 'tickets'), reveal, time(asked))).toEqual({
        kind: 'refused',
        reason: 'Queue counts what exists, over all time, and Tickets what happened, over a period, so they cannot be answered together without a period; name one, or ask about one at a time.',
        closest: [
          { reveal: 'support', metric: 'queue', label: 'Queue' },
          { reveal: 'support', metric: 'tickets', label: 'Tickets' },
        ],
      });
    }
  });

  it('beside a snapshot: every row as of now without a period, refused with one', () => {
    expect(decideCoverage(plan('open_tickets', 'queue'), reveal, time())).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    expect(decideCoverage(plan('open_tickets', 'queue'), reveal, time(period('last_month')))).toMatchObject({ kind: 'refused', closest: [{ metric: 'open_tickets' }] });
  });
});
