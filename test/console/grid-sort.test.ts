// The results grid's column sort: numbers and dates by value, not as text; blanks last; a header click
// cycles ascending, descending, unsorted.
import { describe, expect, it } from 'vitest';
import { nextSort, sortKind, sortRows } from '../../web/src/components/grid-sort.js';

const sorted = (values: unknown[], type: string | undefined, direction: 'asc' | 'desc' = 'asc') => sortRows(values, (v) => v, type, direction);

describe('sortRows', () => {
  it('sorts numbers as numbers, also those sent as strings beyond 2^53', () => {
    expect(sorted([10, 9, 100, -1], 'INTEGER')).toEqual([-1, 9, 10, 100]);
    expect(sorted(['10', '9', '100'], undefined)).toEqual(['9', '10', '100']);
    expect(sorted(['9007199254740993', '9007199254740992', '12'], 'HUGEINT', 'desc')).toEqual(['9007199254740993', '9007199254740992', '12']);
    expect(sorted(['2.5', '10.25', '-3'], 'DECIMAL(10,2)')).toEqual(['-3', '2.5', '10.25']);
  });

  it('sorts dates and timestamps as instants', () => {
    expect(sorted(['2024-10-01', '2024-09-30', '2023-12-31'], 'DATE')).toEqual(['2023-12-31', '2024-09-30', '2024-10-01']);
    // With zones: 10:00+02:00 is before 09:00Z.
    expect(sorted(['2024-01-01T09:00:00.000Z', '2024-01-01T10:00:00+02:00'], undefined)).toEqual(['2024-01-01T10:00:00+02:00', '2024-01-01T09:00:00.000Z']);
    expect(sortKind('TIMESTAMP WITH TIME ZONE', [])).toBe('date');
  });

  it('sorts text by collation, keeps ties in order and puts blanks last both ways', () => {
    expect(sorted(['b', null, 'A', 'a2', 'a10'], 'VARCHAR')).toEqual(['A', 'a2', 'a10', 'b', null]);
    expect(sorted(['b', null, 'A'], 'VARCHAR', 'desc')).toEqual(['b', 'A', null]);
    const rows = [{ k: 1, i: 'first' }, { k: 0, i: 'x' }, { k: 1, i: 'second' }];
    expect(sortRows(rows, (r) => r.k, 'INTEGER', 'desc').map((r) => r.i)).toEqual(['first', 'second', 'x']);
  });
});

describe('nextSort', () => {
  it('cycles ascending, descending, off; another column starts ascending', () => {
    const asc = nextSort(undefined, 'n');
    expect(asc).toEqual({ column: 'n', direction: 'asc' });
    const desc = nextSort(asc, 'n');
    expect(desc).toEqual({ column: 'n', direction: 'desc' });
    expect(nextSort(desc, 'n')).toBeUndefined();
    expect(nextSort(desc, 'm')).toEqual({ column: 'm', direction: 'asc' });
  });
});
