import { describe, expect, it } from 'vitest';
import { numbersIn } from './llm-prose.js';
import { answerProse, formatValue, noMatchProse, noRowsVisibleProse, type ProseInput } from './prose.js';

const week = { token: 'last_week', start: '2025-06-09', end: '2025-06-16', phrase: 'last week' };
const lastWeek = { kind: 'period', period: week } as const;
const base: ProseInput = { metricLabel: 'Revenue', unit: 'dollars', coverage: lastWeek, filters: [], total: 12000, breakdown: [], dimensions: [], others: [] };

describe('formatValue', () => {
  it.each<[unknown, string, string]>([
    [1234.5, 'dollars', '$1,234.50'],
    [-1234.5, 'usd', '-$1,234.50'],
    [99.999, 'eur', '€100.00'],
    [0.0423, 'percent', '4.23%'],
    [1.5, 'percent', '150%'], // a share above 1 is still a share: growth of 150%
    [0.008, 'percent', '0.8%'],
    [12.5, 'percentage_points', '12.5%'],
    [1499.6, 'count', '1,499.6'], // never rounded to a whole number it is not
    [1500, 'count', '1,500'],
    [42.5, 'minutes', '42.5 minutes'],
    [1, 'minutes', '1 minute'],
    [3, 'hours', '3 hours'],
    [2, 'days', '2 days'],
    [-3.5, 'celsius', '-3.5 °C'],
    [4.3, 'mm', '4.3 mm'],
    [725, 'km', '725 km'],
    [188.5, 'KG', '188.5 kg'],
    [12, 'tickets', '12 tickets'], // a unit word nothing knows is written as it is
    [3, 'support_visits', '3 support visits'],
    [0.004, 'km', '0.004 km'], // small values keep their digits
    [2.125, '', '2.13'],
    [null, 'dollars', 'no value'],
  ])('%s %s → %s', (value, unit, expected) => {
    expect(formatValue(value, unit)).toBe(expected);
  });

  it('takes its unit displays from the lookup it is given', () => {
    expect(formatValue(3.14159, 'radians', (unit) => (unit === 'radians' ? { suffix: ' rad', decimals: 3 } : undefined))).toBe('3.142 rad');
  });

  it('writes one English number the prose check can read, the value as shown', () => {
    for (const [value, unit, shown] of [[1234567.891, 'dollars', 1234567.89], [0.25, 'percent', 25], [27.0689655, 'minutes', 27.07], [-7.25, 'celsius', 7.25], [1, 'km', 1]] as const) {
      expect(numbersIn(formatValue(value, unit)).map((n) => n.value)).toEqual([shown]);
    }
  });
});

describe('answerProse', () => {
  it('states the metric, the period with its dates, and the top of a breakdown', () => {
    const text = answerProse({
      ...base,
      dimensions: ['region'],
      breakdown: [
        { label: 'Europe', value: 7000 },
        { label: 'North America', value: 5000 },
      ],
    });
    expect(text).toBe('Revenue for last week (2025-06-09 to 2025-06-15) was $12,000.00. By region: Europe $7,000.00, North America $5,000.00.');
  });

  it('names a range by its two ends and an open range by its start', () => {
    const range = { token: '2019_01..2019_06', start: '2019-01-01', end: '2019-07-01', phrase: 'from January to June 2019' };
    expect(answerProse({ ...base, coverage: { kind: 'period', period: range } })).toBe('Revenue for January 2019 to June 2019 (2019-01-01 to 2019-06-30) was $12,000.00.');
    const since = { token: 'since_2019_h2', start: '2019-07-01', end: '2025-06-19', phrase: 'since H2 2019' };
    expect(answerProse({ ...base, coverage: { kind: 'period', period: since } })).toBe('Revenue for the period since H2 2019 (2019-07-01 to 2025-06-18) was $12,000.00.');
  });

  it('names the filters of the plan', () => {
    const text = answerProse({ ...base, filters: [{ label: 'channel', values: ['web'] }, { label: 'region', values: ['Europe', 'Asia'] }] });
    expect(text).toBe('Revenue for last week (2025-06-09 to 2025-06-15), where channel is web and region is Europe or Asia, was $12,000.00.');
  });

  it('heads a ranking as top or bottom N, and says when the NULL group was left out', () => {
    const ranking = { byMetric: true, direction: 'asc', limit: 2, nullGroupLeftOut: true } as const;
    const groups = { dimensions: ['team'], breakdown: [{ label: 'alpha', value: 1 }, { label: 'beta', value: 2 }] };
    const text = answerProse({ ...base, ...groups, ranking });
    expect(text).toBe('Revenue for last week (2025-06-09 to 2025-06-15) was $12,000.00. Bottom 2 by team: alpha $1.00, beta $2.00. Rows with no team are left out of the ranking; the total includes them.');
    // Sorted by the dimension itself, it is a list in order, not a ranking by value.
    expect(answerProse({ ...base, ...groups, ranking: { ...ranking, byMetric: false, nullGroupLeftOut: false } })).toMatch(/ First 2 by team: alpha \$1\.00, beta \$2\.00\.$/);
  });

  it('labels the NULL group of a breakdown', () => {
    expect(answerProse({ ...base, dimensions: ['team'], breakdown: [{ label: '', value: 5 }] })).toMatch(/By team: \(none\) \$5\.00\.$/);
  });

  it('speaks of a snapshot as of now', () => {
    expect(answerProse({ ...base, metricLabel: 'Open tickets', unit: 'count', coverage: { kind: 'as_of_now' }, total: 13 })).toBe('Open tickets as of now is 13.');
  });

  it('says "all time" of a stock counted over every row, filters and breakdown included', () => {
    const stock = { ...base, metricLabel: 'Customers', unit: 'count', coverage: { kind: 'all_time' } as const, total: 648 };
    expect(answerProse(stock)).toBe('Customers as of now (all time) is 648.');
    expect(answerProse({ ...stock, filters: [{ label: 'segment', values: ['enterprise'] }] })).toBe('Customers as of now (all time), where segment is enterprise, is 648.');
    expect(noRowsVisibleProse({ metricLabel: 'Customers', coverage: { kind: 'all_time' }, filters: [] })).toBe('No rows are visible to you, so there is no Customers to report.');
  });

  it('says "had no value" for a missing value, and that no rows matched when none did', () => {
    expect(answerProse({ ...base, total: null, noRows: true })).toBe('Revenue for last week (2025-06-09 to 2025-06-15) had no value. No rows matched.');
  });
});

describe('refusals and empty answers', () => {
  it('says no rows are visible, with the period and the filters, and gives no number', () => {
    expect(noRowsVisibleProse({ metricLabel: 'Revenue', coverage: lastWeek, filters: [{ label: 'channel', values: ['web'] }] })).toBe(
      'No rows are visible to you for last week (2025-06-09 to 2025-06-15), where channel is web, so there is no Revenue to report.',
    );
  });

  it('says plainly when nothing governed answers, naming the closest metrics', () => {
    expect(noMatchProse('nothing in the catalog explains "cohort"', [{ label: 'Buyers', reveal: 'sales' }])).toBe(
      'I could not answer that from a governed metric: nothing in the catalog explains "cohort". The closest governed metrics are Buyers (sales).',
    );
  });
});
