// The order of rows merged in JavaScript (composed queries), as compiled queries order theirs: by each
// sort key in turn, nulls last in either direction, the sort stable. Numbers compare as numbers, text by
// its UTF-16 code units (the warehouses' collations differ among themselves; this one is the same on
// every engine).
import type { WarehouseRow, WarehouseValue } from '../warehouse/types.js';

export type RowOrder = ReadonlyArray<{ readonly key: string; readonly direction: 'asc' | 'desc' }>;

export function sortRows(rows: readonly WarehouseRow[], order: RowOrder): WarehouseRow[] {
  return [...rows].sort((a, b) => {
    for (const { key, direction } of order) {
      const x = a[key] ?? null;
      const y = b[key] ?? null;
      if (x === null && y === null) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      const compared = compareValues(x, y);
      if (compared !== 0) return direction === 'asc' ? compared : -compared;
    }
    return 0;
  });
}

function compareValues(x: Exclude<WarehouseValue, null>, y: Exclude<WarehouseValue, null>): number {
  // A measure beyond 2^53 comes as decimal text among numbers: compared as a number then.
  if (typeof x === 'number' || typeof y === 'number') {
    const a = Number(x);
    const b = Number(y);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof x === 'boolean' && typeof y === 'boolean') return Number(x) - Number(y);
  const a = String(x);
  const b = String(y);
  return a < b ? -1 : a > b ? 1 : 0;
}
