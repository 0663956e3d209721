// A rollup route (RollupReport) as the APIs show it, in their snake case: C's `metadata.rollup`, the
// question API's `provenance.rollups`, MCP's `explain_query`.
import type { RollupReport } from './rollup-route.js';

export type PresentedRollup =
  | { name: string; table: string; partitions_built_at: string; data_through: string | null }
  | { used: null; candidates: Array<{ name: string; reason_code: string; reason: string }> };

export function presentRollup(report: RollupReport): PresentedRollup {
  if (report.used) return { name: report.used.name, table: report.used.table, partitions_built_at: report.used.partitionsBuiltAt, data_through: report.used.dataThrough };
  return { used: null, candidates: report.candidates.map((c) => ({ name: c.name, reason_code: c.reasonCode, reason: c.reason })) };
}
