// A word that names a metric of one reveal can also be a dimension or value word of another ("visits"
// in billing, where invoices reach the visit they bill). It must not make a question "mixed" when the
// reveal of the other metric explains it; a real mix of two reveals' metrics is still declined.
import { describe, expect, it } from 'vitest';
import { ask, governed } from './models.js';

describe('metric words of another reveal', () => {
  it('reads them as the value or dimension words of the chosen reveal', () => {
    expect(ask('clinic', 'refunds for emergency visits')).toMatchObject(governed('billing', ['refunds'], { filters: [{ field: 'visits.visit_type', value: 'emergency' }] }));
    expect(ask('clinic', 'amount billed for referred visits by clinic')).toMatchObject(
      governed('billing', ['billed'], { dimensions: ['visits.clinic'], filters: [{ field: 'visits.outcome', value: 'referred' }] }),
    );
    expect(ask('clinic', 'invoices of routine visits per department')).toMatchObject(
      governed('billing', ['invoices'], { dimensions: ['visits.department'], filters: [{ field: 'visits.visit_type', value: 'routine' }] }),
    );
    expect(ask('library', 'loans to student members')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'members.member_type', value: 'student' }] }));
    expect(ask('library', 'late fees of child members by branch')).toMatchObject(
      governed('lending', ['late_fees'], { dimensions: ['branch'], filters: [{ field: 'members.member_type', value: 'child' }] }),
    );
  });

  it('does so whichever metric word comes first', () => {
    expect(ask('clinic', 'emergency visits refunds')).toMatchObject(governed('billing', ['refunds'], { filters: [{ field: 'visits.visit_type', value: 'emergency' }] }));
    expect(ask('library', 'student members loans')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'members.member_type', value: 'student' }] }));
  });

  it('still breaks down by a qualified dimension of the other node', () => {
    expect(ask('clinic', 'refunds by visit type')).toMatchObject(governed('billing', ['refunds'], { dimensions: ['visits.visit_type'] }));
  });

  it('still declines two metrics of two reveals that nothing ties together', () => {
    for (const question of ['visits and refunds', 'loans and members', 'refunds and average wait']) {
      const plan = ask(question.includes('loans') ? 'library' : 'clinic', question);
      expect(plan.kind, question).toBe('no_match');
      if (plan.kind === 'no_match') expect(plan.reason, question).toMatch(/different reveals/);
    }
  });

  it('declines rather than ignore the other metric word when it restricts nothing in the chosen reveal', () => {
    // "visits" names the visit node but neither a value nor a breakdown: say how to use it.
    expect(ask('clinic', 'visits refunds').kind).toBe('no_match');
  });
});
