import { describe, expect, it } from 'vitest';
import { compileModel } from '../core/cml/index.js';
import type { GovernedPlan, ResolvedPeriod } from '../core/answer/plan.js';
import { decideCoverage } from './coverage.js';

const CML = `
node tickets {
  connection: ops
  table: ops.tickets
  dimension id        { type: number  primary_key: true }
  dimension opened_at { type: timestamp }
  measure ticket_count { type: count }
  measure open_count   { type: count  filter: \${TABLE}.status = 'open' }
}
reveal support {
  domain: operations
  base: tickets
  time: tickets.opened_at
  metric tickets      { label: "Tickets"  measure: tickets.ticket_count }
  metric open_tickets { label: "Open tickets"  snapshot: true  measure: tickets.open_count }
}
`;
const model = compileModel([{ path: 'ops.cml', content: CML }]).model!;
const reveal = model.reveals.get('support')!;
const plan = (...metrics: string[]): GovernedPlan => ({ kind: 'governed', reveal: 'support', metrics, dimensions: [], filters: [], matchedBy: 'label' });
const period = (token: string): ResolvedPeriod => ({ token, start: '2025-06-01', end: '2025-07-01', phrase: token });
const fallback = period('last_30_days');

describe('decideCoverage', () => {
  it('uses the named period of a period-bound metric, and the default window with an assumption otherwise', () => {
    expect(decideCoverage(plan('tickets'), reveal, period('last_month'), fallback)).toEqual({ kind: 'covered', coverage: { kind: 'period', period: period('last_month') }, assumptions: [] });
    const assumed = decideCoverage(plan('tickets'), reveal, undefined, fallback);
    expect(assumed).toMatchObject({ kind: 'covered', coverage: { kind: 'period', period: fallback }, assumptions: [{ code: 'period_assumed' }] });
  });

  it('assumes no window when the question bounds time itself ("right now", a value naming a year)', () => {
    expect(decideCoverage(plan('tickets'), reveal, undefined, fallback, true)).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    expect(decideCoverage(plan('tickets'), reveal, period('last_month'), fallback, true)).toMatchObject({ coverage: { kind: 'period' } });
  });

  it('answers a snapshot as of now, with no assumed period, also for "today"', () => {
    for (const asked of [undefined, period('today')]) {
      expect(decideCoverage(plan('open_tickets'), reveal, asked, fallback)).toEqual({ kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] });
    }
  });

  it.each(['last_month', 'yesterday', '2024', 'this_week'])('refuses a snapshot asked for %s', (token) => {
    const decision = decideCoverage(plan('open_tickets'), reveal, period(token), fallback);
    expect(decision).toMatchObject({ kind: 'refused', closest: [{ reveal: 'support', metric: 'open_tickets', label: 'Open tickets' }] });
    expect(decision.kind === 'refused' && decision.reason).toContain(`cannot be given for ${token.replaceAll('_', ' ')}`);
  });

  it('refuses a plan that mixes a snapshot with a period-bound metric, whatever the period', () => {
    for (const asked of [undefined, period('last_month')]) {
      const decision = decideCoverage(plan('tickets', 'open_tickets'), reveal, asked, fallback);
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
