// The four demo tables once, engine-neutral: column names and kinds in SCHEMA.md order, how to read
// each column from a generated row, and the indexes added after loading (bulk loads run faster into
// tables without them). Engine-specific DDL lives beside each loader.
import type { CustomerRow, DemoBatch, DemoTable, OrderItemRow, OrderRow, ProductRow } from './types.js';

/** money: integer cents → DECIMAL(12,2); timestamp: epoch ms → zone-less UTC TIMESTAMP. */
export type ColumnKind = 'integer' | 'text' | 'money' | 'timestamp';

export interface ColumnSpec<Row> {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly value: (row: Row) => number | string;
}

interface RowOf {
  customers: CustomerRow;
  products: ProductRow;
  orders: OrderRow;
  order_items: OrderItemRow;
}

export type TableColumns = { readonly [T in DemoTable]: ReadonlyArray<ColumnSpec<RowOf[T]>> };

export const TABLE_COLUMNS: TableColumns = {
  customers: [
    { name: 'id', kind: 'integer', value: (r) => r.id },
    { name: 'name', kind: 'text', value: (r) => r.name },
    { name: 'email', kind: 'text', value: (r) => r.email },
    { name: 'region', kind: 'text', value: (r) => r.region },
    { name: 'country', kind: 'text', value: (r) => r.country },
    { name: 'segment', kind: 'text', value: (r) => r.segment },
    { name: 'signup_at', kind: 'timestamp', value: (r) => r.signupAtMs },
  ],
  products: [
    { name: 'id', kind: 'integer', value: (r) => r.id },
    { name: 'name', kind: 'text', value: (r) => r.name },
    { name: 'category', kind: 'text', value: (r) => r.category },
    { name: 'price', kind: 'money', value: (r) => r.priceCents },
    { name: 'cost', kind: 'money', value: (r) => r.costCents },
  ],
  orders: [
    { name: 'id', kind: 'integer', value: (r) => r.id },
    { name: 'customer_id', kind: 'integer', value: (r) => r.customerId },
    { name: 'status', kind: 'text', value: (r) => r.status },
    { name: 'channel', kind: 'text', value: (r) => r.channel },
    { name: 'ship_region', kind: 'text', value: (r) => r.shipRegion },
    { name: 'created_at', kind: 'timestamp', value: (r) => r.createdAtMs },
    { name: 'amount', kind: 'money', value: (r) => r.amountCents },
    { name: 'discount', kind: 'money', value: (r) => r.discountCents },
  ],
  order_items: [
    { name: 'id', kind: 'integer', value: (r) => r.id },
    { name: 'order_id', kind: 'integer', value: (r) => r.orderId },
    { name: 'product_id', kind: 'integer', value: (r) => r.productId },
    { name: 'quantity', kind: 'integer', value: (r) => r.quantity },
    { name: 'unit_price', kind: 'money', value: (r) => r.unitPriceCents },
  ],
};

/** Secondary indexes for the usual joins and time filters (row-store engines only). */
export const SECONDARY_INDEXES: ReadonlyArray<{ readonly table: DemoTable; readonly column: string }> = [
  { table: 'orders', column: 'created_at' },
  { table: 'orders', column: 'customer_id' },
  { table: 'order_items', column: 'order_id' },
  { table: 'order_items', column: 'product_id' },
];

export const DEMO_SCHEMA = 'shop';

export interface DdlDialect {
  readonly types: Record<ColumnKind, string>;
  readonly quote: (name: string) => string;
  /** Declare `id` as the primary key up front; otherwise the loader adds it after the rows are in. */
  readonly primaryKeyInline: boolean;
  /** Appended to CREATE TABLE (e.g. the storage engine). */
  readonly tableSuffix?: string;
}

export function createTableSql(schema: string, table: DemoTable, dialect: DdlDialect): string {
  const { quote, types } = dialect;
  const columns: string[] = columnsOf(table).map((c) => `${quote(c.name)} ${types[c.kind]} NOT NULL`);
  if (dialect.primaryKeyInline) columns.push(`PRIMARY KEY (${quote('id')})`);
  return `CREATE TABLE ${quote(schema)}.${quote(table)} (${columns.join(', ')})${dialect.tableSuffix ?? ''}`;
}

/** The columns of any table, typed loosely for code that treats all tables alike. */
export function columnsOf(table: DemoTable): ReadonlyArray<ColumnSpec<never>> {
  return TABLE_COLUMNS[table];
}

/** A batch's rows with the column readers that fit them. */
export function batchColumns(batch: DemoBatch): { columns: ReadonlyArray<ColumnSpec<unknown>>; rows: readonly unknown[] } {
  // Safe: TABLE_COLUMNS[batch.table] reads exactly the row type that batch.table carries.
  return { columns: TABLE_COLUMNS[batch.table] as ReadonlyArray<ColumnSpec<unknown>>, rows: batch.rows };
}

export function emptyCounts(): Record<DemoTable, number> {
  return { customers: 0, products: 0, orders: 0, order_items: 0 };
}
