// The scorer itself: a governed answer counts as exact only with the expected numbers, so a wrong
// number can never hide behind a lenient comparison.
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../src/answering/answer.js';
import { matchesExpected } from './compare.js';
import type { ExpectedResult } from './expected.js';

const METRICS = new Set(['gmv', 'orders']);

function answer(rows: Record<string, unknown>[], columns: string[], value?: number): Answer {
  return {
    answer: '',
    data: { rows, columns, metric: 'gmv', ...(value !== undefined ? { value } : {}), period: '2024' },
    provenance: { source: 'semantic layer', reveal: 'marketplace', reveal_backed: true, freshness: null, confidence: 'high', assumptions: [] },
    usage: { tokens_used: 0, latency_ms: 1 },
  };
}

const ranked = (rows: Array<[string | null, number]>, firstLeftOut: number | null = null): ExpectedResult => ({
  kind: 'ranked',
  rows: rows.map(([key, value]) => ({ keys: [key], value })),
  firstLeftOut,
});

describe('matchesExpected', () => {
  it('compares the headline value within a relative tolerance, and nothing else', () => {
    const expected: ExpectedResult = { kind: 'value', value: 1234.56 };
    expect(matchesExpected(answer([{ gmv: 1234.56 }], ['gmv'], 1234.56), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ gmv: 1234.5600000001 }], ['gmv'], 1234.5600000001), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ gmv: 1235 }], ['gmv'], 1235), expected, METRICS)).toBe(false);
    // A population total where a filtered number was asked for is wrong, however governed.
    expect(matchesExpected(answer([{ gmv: 99_999 }], ['gmv'], 99_999), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([], ['gmv']), expected, METRICS)).toBe(false);
  });

  it('compares breakdown rows in any order, keyed by every non-metric column, with a NULL group as a group', () => {
    const expected: ExpectedResult = { kind: 'rows', rows: [{ keys: ['Books'], value: 10 }, { keys: [null], value: 5 }, { keys: ['Toys'], value: 7 }] };
    const columns = ['category', 'gmv', 'orders'];
    expect(matchesExpected(answer([{ category: 'Toys', gmv: 7, orders: 1 }, { category: null, gmv: 5, orders: 2 }, { category: 'Books', gmv: 10, orders: 3 }], columns), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ category: 'Toys', gmv: 7 }, { category: 'Books', gmv: 10 }], ['category', 'gmv']), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ category: 'Toys', gmv: 10 }, { category: null, gmv: 5 }, { category: 'Books', gmv: 7 }], ['category', 'gmv']), expected, METRICS)).toBe(false);
    // A total where a breakdown was asked for.
    expect(matchesExpected(answer([{ gmv: 22 }], ['gmv'], 22), expected, METRICS)).toBe(false);
  });

  it('accepts any label the expected row gives its group (a code or a name), and only with the number of that group', () => {
    const expected: ExpectedResult = { kind: 'rows', rows: [{ keys: ['Germany', 'DE'], value: 10 }, { keys: ['France', 'FR'], value: 7 }] };
    expect(matchesExpected(answer([{ code: 'DE', gmv: 10 }, { code: 'FR', gmv: 7 }], ['code', 'gmv']), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ country: 'France', gmv: 7 }, { country: 'Germany', gmv: 10 }], ['country', 'gmv']), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ code: 'DE', gmv: 7 }, { code: 'FR', gmv: 10 }], ['code', 'gmv']), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ code: 'DE', gmv: 10 }, { code: 'ES', gmv: 7 }], ['code', 'gmv']), expected, METRICS)).toBe(false);
    // Broken down by one more dimension than asked: not the expected groups.
    expect(matchesExpected(answer([{ code: 'DE', status: 'paid', gmv: 10 }, { code: 'FR', status: 'paid', gmv: 7 }], ['code', 'status', 'gmv']), expected, METRICS)).toBe(false);
  });

  it('reads a month bucket as its first day on both sides', () => {
    const expected: ExpectedResult = { kind: 'rows', rows: [{ keys: ['2024-03-01'], value: 3 }] };
    expect(matchesExpected(answer([{ 'ordered_at.month': '2024-03-01T00:00:00.000', gmv: 3 }], ['ordered_at.month', 'gmv']), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ 'ordered_at.month': '2024-04-01T00:00:00.000', gmv: 3 }], ['ordered_at.month', 'gmv']), expected, METRICS)).toBe(false);
  });

  it('ranks in order; a NULL group ranked as a member is wrong, one labelled beside the N members is not', () => {
    const expected = ranked([['Frozen Food', 30], ['Paper Goods', 20]], 10);
    const columns = ['commodity', 'gmv'];
    expect(matchesExpected(answer([{ commodity: 'Frozen Food', gmv: 30 }, { commodity: 'Paper Goods', gmv: 20 }], columns), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ commodity: 'Paper Goods', gmv: 20 }, { commodity: 'Frozen Food', gmv: 30 }], columns), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ commodity: null, gmv: 40 }, { commodity: 'Frozen Food', gmv: 30 }], columns), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ commodity: 'Frozen Food', gmv: 30 }, { commodity: 'Paper Goods', gmv: 20 }, { commodity: null, gmv: 40 }], columns), expected, METRICS)).toBe(true);
    // More members than asked for is not the top 2.
    expect(matchesExpected(answer([{ commodity: 'Frozen Food', gmv: 30 }, { commodity: 'Paper Goods', gmv: 20 }, { commodity: 'Furniture', gmv: 10 }], columns), expected, METRICS)).toBe(false);
  });

  it('lets groups tied on the number come in either order', () => {
    const expected = ranked([['A', 5], ['B', 3], ['C', 3]], 1);
    const columns = ['team', 'gmv'];
    expect(matchesExpected(answer([{ team: 'A', gmv: 5 }, { team: 'C', gmv: 3 }, { team: 'B', gmv: 3 }], columns), expected, METRICS)).toBe(true);
    expect(matchesExpected(answer([{ team: 'A', gmv: 5 }, { team: 'C', gmv: 3 }, { team: 'D', gmv: 3 }], columns), expected, METRICS)).toBe(false);
  });

  it('takes a comparison only with both periods and the change between them, in one row', () => {
    const expected: ExpectedResult = { kind: 'compared', current: 120, comparison: 100 };
    const columns = ['gmv', 'gmv.comparison', 'gmv.change', 'gmv.change_percent'];
    expect(matchesExpected(answer([{ gmv: 120, 'gmv.comparison': 100, 'gmv.change': 20, 'gmv.change_percent': 20 }], columns, 120), expected, METRICS)).toBe(true);
    // The periods the other way round: the change has the wrong sign.
    expect(matchesExpected(answer([{ gmv: 100, 'gmv.comparison': 120, 'gmv.change': -20 }], columns, 100), expected, METRICS)).toBe(false);
    // One period alone, or both without the change, is not a comparison.
    expect(matchesExpected(answer([{ gmv: 120 }], ['gmv'], 120), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ gmv: 120, 'gmv.comparison': 100 }], ['gmv', 'gmv.comparison'], 120), expected, METRICS)).toBe(false);
    // A change that does not follow from the two values.
    expect(matchesExpected(answer([{ gmv: 120, 'gmv.comparison': 100, 'gmv.change': 25 }], columns, 120), expected, METRICS)).toBe(false);
    // A comparison per group where one for the whole was asked.
    const twoRows = [{ channel: 'web', gmv: 120, 'gmv.comparison': 100, 'gmv.change': 20 }, { channel: 'app', gmv: 1, 'gmv.comparison': 1, 'gmv.change': 0 }];
    expect(matchesExpected(answer(twoRows, ['channel', ...columns]), expected, METRICS)).toBe(false);
  });

  it('reads shares from the share column, the computed columns never as labels', () => {
    const expected: ExpectedResult = { kind: 'shares', rows: [{ keys: ['web'], value: 0.75 }, { keys: ['app'], value: 0.25 }] };
    const columns = ['channel', 'gmv', 'gmv.share'];
    expect(matchesExpected(answer([{ channel: 'web', gmv: 30, 'gmv.share': 0.75 }, { channel: 'app', gmv: 10, 'gmv.share': 0.25 }], columns), expected, METRICS)).toBe(true);
    // The totals where their shares were asked for.
    expect(matchesExpected(answer([{ channel: 'web', gmv: 30 }, { channel: 'app', gmv: 10 }], ['channel', 'gmv']), expected, METRICS)).toBe(false);
    expect(matchesExpected(answer([{ channel: 'web', gmv: 30, 'gmv.share': 0.25 }, { channel: 'app', gmv: 10, 'gmv.share': 0.75 }], columns), expected, METRICS)).toBe(false);
    // A ratio beside a breakdown is a number of the row, not a label of its group.
    const perRows: ExpectedResult = { kind: 'rows', rows: [{ keys: ['web'], value: 30 }] };
    expect(matchesExpected(answer([{ channel: 'web', gmv: 30, orders: 3, 'gmv.per.orders': 10 }], ['channel', 'gmv', 'orders', 'gmv.per.orders']), perRows, METRICS)).toBe(true);
  });
});
