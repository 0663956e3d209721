import { describe, expect, it } from 'vitest';
import { answerProse, formatValue, noMatchProse } from './prose.js';

const week = { token: 'last_week', start: '2025-06-09', end: '2025-06-16', phrase: 'last week' };

describe('prose', () => {
  it('formats values by unit', () => {
    expect(formatValue(1234.5, 'dollars')).toBe('$1,234.50');
    expect(formatValue(0.0423, 'percent')).toBe('4.2%');
    expect(formatValue(12.5, 'percent')).toBe('12.5%');
    expect(formatValue(1499.6, 'count')).toBe('1,500');
    expect(formatValue(null, 'dollars')).toBe('no value');
  });

  it('states the metric, the period with its dates, and the top of a breakdown', () => {
    const text = answerProse({
      metricLabel: 'Revenue',
      unit: 'dollars',
      period: week,
      total: 12000,
      dimensionLabel: 'region',
      breakdown: [
        { label: 'Europe', value: 7000 },
        { label: 'North America', value: 5000 },
      ],
      others: [],
    });
    expect(text).toBe('Revenue for last week (2025-06-09 to 2025-06-15) was $12,000.00. By region: Europe $7,000.00, North America $5,000.00.');
  });

  it('says plainly when nothing governed answers, naming the closest metrics', () => {
    expect(noMatchProse('nothing in the catalog explains "cohort"', [{ label: 'Buyers', reveal: 'sales' }])).toBe(
      'I could not answer that from a governed metric: nothing in the catalog explains "cohort". The closest governed metrics are Buyers (sales).',
    );
  });
});
