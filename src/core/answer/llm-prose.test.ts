import { describe, expect, it } from 'vitest';
import { checkProse, numbersIn, proseRequest, type ProseFacts } from './llm-prose.js';

const FACTS: ProseFacts = {
  question: 'chiffre d’affaires par canal le mois dernier',
  template: 'Revenue for last month (2026-10-01 to 2026-10-31) was $1,577,611.24. By channel: web $700,100.50, mobile $577,510.74, marketplace $300,000.00.',
  rows: ['web: $700,100.50', 'mobile: $577,510.74', 'marketplace: $300,000.00'],
};

describe('numbersIn', () => {
  it('reads English-formatted numbers and dates', () => {
    expect(numbersIn('$1,577,611.24 on 2026-10-01, 12.5% and 3.').map((n) => n.value)).toEqual([1577611.24, 2026, 10, 1, 12.5, 3]);
  });

  it('gives foreign formatting no value, so it can match nothing', () => {
    expect(numbersIn('611,24')[0]!.value).toBeNaN();
  });
});

describe('checkProse', () => {
  it('accepts English prose whose numbers all come from the facts', async () => {
    const prose = 'Last month (2026-10-01 to 2026-10-31) revenue came to $1,577,611.24, with web leading at $700,100.50, then mobile at $577,510.74 and marketplace at $300,000.00.';
    expect(await checkProse(prose, FACTS)).toEqual({ ok: true });
  });

  it.each([
    ['a rounded number', 'Revenue last month was about $1.6 million, led by web.', /not in the rows: 1\.6/],
    ['a computed share', 'Revenue last month was $1,577,611.24; web brought 44% of it.', /not in the rows: 44/],
    ['a sum the model did', 'Web and mobile together made $1,277,611.24 last month.', /1,277,611\.24/],
    ['French', "Le chiffre d'affaires du mois dernier s'élève à $1,577,611.24, porté par le canal web.", /not English \(detected "fr"\)/],
    ['French number formatting', "Le chiffre d'affaires était de 1 577 611,24 $.", /not in the rows/],
    ['a markdown list', '- web: $700,100.50\n- mobile: $577,510.74', /formatted/],
    ['nothing', '   ', /empty/],
  ])('refuses %s', async (_what, prose, reason) => {
    const check = await checkProse(prose, FACTS);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(reason);
  });

  it('sends the facts and rows, never more than 20 rows', () => {
    const many = { ...FACTS, rows: Array.from({ length: 30 }, (_, i) => `row ${i}: ${i}`) };
    const { system, user } = proseRequest(many);
    expect(system).toMatch(/English/);
    expect(user).toContain(FACTS.template);
    expect(user).toContain('row 19: 19');
    expect(user).not.toContain('row 20: 20');
    expect(user).toContain('(10 more rows)');
  });
});
