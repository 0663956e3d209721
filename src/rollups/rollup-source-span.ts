// The time span a partitioned rollup's source holds rows in: the source's own buckets of the rollup's
// partition grain (in the rollup's zone, through the governed compiler, every data key open), the
// first and the last, so that planning builds no partition before the first rows or after the last.
import { ALL_ROWS, compileQuery } from '../core/semantic/compile.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { semanticQuerySchema } from '../core/semantic/query.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { Warehouse } from '../core/warehouse/types.js';
import { MAX_PARTITIONS, type SourceSpan } from './rollup-plan.js';

const WALL_TEXT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2}))?/;

/** Undefined when the rollup is not partitioned or the source holds no rows. */
export async function sourceSpan(model: SemanticModel, rollup: Rollup, source: Warehouse, now: Date, timeoutMs: number): Promise<SourceSpan | undefined> {
  if (!rollup.partition || !rollup.time) return undefined;
  const node = model.nodes.get(rollup.node);
  if (!node) return undefined;
  const query = semanticQuerySchema.parse({ node: node.name, dimensions: [`${rollup.time.dimension}.${rollup.partition}`], timezone: rollup.timezone });
  const attributes = Object.fromEntries(node.dataKeys.map((key) => [key.attribute, ALL_ROWS]));
  const compiled = compileQuery(model, { ...query, limit: MAX_PARTITIONS * 20 }, { dialect: DIALECTS[source.engine], attributes, now, timezone: rollup.timezone });
  const key = compiled.columns[0]!.key;
  const result = await source.run(compiled.sql, compiled.params, { maxRows: MAX_PARTITIONS * 20, timeoutMs, ...(compiled.timezone !== 'UTC' ? { timeZone: compiled.timezone } : {}) });
  let first: Date | undefined;
  let last: Date | undefined;
  for (const row of result.rows) {
    const wall = wallOf(row[key]);
    if (!wall) continue;
    if (!first || wall < first) first = wall;
    if (!last || wall > last) last = wall;
  }
  return first && last ? { first, last } : undefined;
}

/** A bucket as the drivers write it (`YYYY-MM-DD HH:mm:ss` or a date), as a wall Date. */
function wallOf(value: unknown): Date | undefined {
  const match = typeof value === 'string' ? WALL_TEXT.exec(value) : undefined;
  if (!match) return undefined;
  return new Date(`${match[1]}T${match[2] ?? '00:00:00'}Z`);
}
