// The rows a scheduled delivery carries, as JSON and as CSV (the service's CSV, querying/csv-rows.ts:
// RFC 4180, formulas escaped for spreadsheets), and as a plain-text table for chat webhooks. Rows are
// bounded: a delivery is one HTTP body, not an export.
import type { WarehouseRow } from '../core/warehouse/types.js';
import { csvDocument } from '../querying/csv-rows.js';

/** Rows a delivery carries per scene at most (the rest is counted, not sent). */
export const MAX_DELIVERY_ROWS = 1000;
/** Rows a chat message shows per table: a message is read, not processed. */
export const MAX_CHAT_ROWS = 20;

/** One scene's answer in a delivery: its columns, rows and CSV; or why it could not be read. */
export interface DeliveredTable {
  title: string;
  scene_id: string | null;
  columns: string[];
  rows: WarehouseRow[];
  /** More rows than the delivery carries existed (or the query's own limit cut them). */
  truncated: boolean;
  csv: string;
  error?: string;
}

export function tableOf(title: string, sceneId: string | null, columns: readonly string[], rows: readonly WarehouseRow[], truncated: boolean): DeliveredTable {
  const kept = rows.slice(0, MAX_DELIVERY_ROWS);
  return { title, scene_id: sceneId, columns: [...columns], rows: kept, truncated: truncated || rows.length > kept.length, csv: toCsv(columns, kept) };
}

export function failedTable(title: string, sceneId: string | null, error: string): DeliveredTable {
  return { title, scene_id: sceneId, columns: [], rows: [], truncated: false, csv: '', error };
}

export function toCsv(columns: readonly string[], rows: readonly WarehouseRow[]): string {
  return csvDocument(columns, rows);
}

/** A fixed-width text table (columns padded to their widest cell), for a monospace block. */
export function textTable(columns: readonly string[], rows: readonly WarehouseRow[], maxRows = MAX_CHAT_ROWS): string {
  const shown = rows.slice(0, maxRows);
  const cells = [columns.map(String), ...shown.map((row) => columns.map((c) => (row[c] === null || row[c] === undefined ? '' : String(row[c]))))];
  const widths = columns.map((_, i) => Math.min(40, Math.max(...cells.map((line) => line[i]!.length))));
  const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));
  const lines = cells.map((line) => line.map((cell, i) => fit(cell, widths[i]!)).join(' | ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('-+-'));
  if (rows.length > shown.length) lines.push(`… ${rows.length - shown.length} more rows`);
  return lines.join('\n');
}
