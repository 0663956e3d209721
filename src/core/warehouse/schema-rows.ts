// Turns the flat (schema, table, column, type) rows each driver's catalogue query returns into
// SchemaTable entries, keeping the query's order.
import type { SchemaTable, WarehouseRow } from './types.js';

export function groupSchemaRows(rows: readonly WarehouseRow[]): SchemaTable[] {
  const tables = new Map<string, { schema: string; name: string; columns: { name: string; type: string }[] }>();
  for (const row of rows) {
    const schema = String(row.schema);
    const name = String(row.name);
    const key = JSON.stringify([schema, name]);
    let table = tables.get(key);
    if (!table) {
      table = { schema, name, columns: [] };
      tables.set(key, table);
    }
    table.columns.push({ name: String(row.column_name), type: String(row.column_type).toUpperCase() });
  }
  return [...tables.values()];
}
