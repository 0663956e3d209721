// Comparing result rows: in a canonical order when a query's order is not the point, and numbers
// within what engines legitimately differ by.
import { expect } from 'vitest';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';

/** Rows in a canonical order (by their values, numbers coarsely rounded for the key). */
export function canonical(rows: readonly WarehouseRow[]): WarehouseRow[] {
  const key = (row: WarehouseRow) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v));
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * Engines differ in the last digits of divisions and averages: MySQL keeps 4 decimals more than the
 * operands (div_precision_increment), DuckDB computes a double. Numbers agree within 1e-4 plus a
 * relative 1e-9; everything else exactly.
 */
export function expectSameRows(actual: readonly WarehouseRow[], expected: readonly WarehouseRow[], label: string): void {
  const close = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-4 + 1e-9 * Math.max(Math.abs(a), Math.abs(b)) : a === b;
  const same =
    actual.length === expected.length &&
    actual.every((row, i) => {
      const other = expected[i]!;
      const keys = Object.keys(row);
      return keys.length === Object.keys(other).length && keys.every((k) => close(row[k], other[k]));
    });
  if (same) return;
  expect(actual, label).toEqual(expected); // shows the difference
  expect.fail(`${label}: the rows differ in their keys`); // toEqual overlooks a key whose value is undefined
}
