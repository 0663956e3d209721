// What a rollup's stored table is called and what its columns hold. The name carries a hash of
// everything the rows depend on (the rollup itself and the definitions of the fields it stores, the
// node's source and connection), so a changed definition is a new table and never reads rows built
// for the old one. Column types follow the source's result (DuckDB types, since rollups are stored in
// DuckDB): integers stay integers and decimals stay decimals, so re-aggregated values are exact.
import { createHash } from 'node:crypto';
import type { SemanticModel } from './model.js';
import type { Rollup, RollupColumn } from './rollup-model.js';

/** Decimal places kept when the source does not say its scale (PostgreSQL's NUMERIC of a SUM). */
export const DEFAULT_DECIMAL_SCALE = 10;

export function rollupTableName(model: SemanticModel, rollup: Rollup): string {
  const node = model.nodes.get(rollup.node);
  if (!node) throw new Error(`Rollup ${rollup.name} names unknown node ${rollup.node}`);
  const fields = {
    // When it is rebuilt does not change what it holds.
    rollup: { ...rollup, span: undefined, refresh: undefined },
    source: node.source,
    connection: node.connection,
    dimensions: [...rollup.dimensions, ...(rollup.time ? [rollup.time.dimension] : [])].map((name) => node.dimensions.get(name)),
    measures: rollup.measures.map((m) => node.measures.get(m.name)),
    dataKeys: node.dataKeys,
  };
  // Source positions say where a definition is written, not what it is.
  const text = JSON.stringify(fields, (key, value: unknown) => (key === 'span' ? undefined : value));
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const safe = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${safe(rollup.node)}__${safe(rollup.name)}__${hash}`;
}

/**
 * The DuckDB type a stored column takes, from the type the source reported for it (its engine's name):
 * counts are BIGINT, the time bucket a TIMESTAMP (wall time of the rollup's zone), numbers keep their
 * kind (an integer, a decimal with the source's scale, a double).
 */
export function storedColumnType(column: RollupColumn, sourceType: string): string {
  if (column.kind === 'time') return 'TIMESTAMP';
  // The driver's text, kept as written: fixed-width, so its greatest is the latest time, and read back as the source wrote it.
  if (column.kind === 'latest') return 'VARCHAR';
  if (column.kind === 'measure' && (column.aggregate === 'count' || column.aggregate === 'count_distinct')) return 'BIGINT';
  const type = sourceType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|INT|INT[248]|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|SERIAL|BIGSERIAL)\b/.test(type)) return 'HUGEINT';
  const decimal = /^(NUMERIC|DECIMAL|NUMBER)(?:\s*\(\s*\d+\s*,\s*(\d+)\s*\))?/.exec(type);
  if (decimal) return `DECIMAL(38,${decimal[2] ?? DEFAULT_DECIMAL_SCALE})`;
  if (/^(FLOAT|DOUBLE|REAL)/.test(type)) return 'DOUBLE';
  if (/^BOOL/.test(type)) return 'BOOLEAN';
  if (type === 'DATE') return 'DATE';
  if (/^TIMESTAMP\s*(WITH TIME ZONE|TZ)|^TIMESTAMPTZ/.test(type)) return 'TIMESTAMPTZ';
  if (/^TIMESTAMP/.test(type)) return 'TIMESTAMP';
  return 'VARCHAR';
}
