// Reads back what a loader wrote: the same per-table totals summariseDemo() computes from the stream
// (so engines can be compared with the generator and with each other), declared column types, and
// counts of rows that break a relationship (dangling keys, amounts that do not add up).
import type { DemoTotals } from '../../src/core/demo/index.js';

export interface EngineAccess {
  /** Runs one query and returns its single row, every value as the driver gives it. */
  one(sql: string): Promise<Record<string, unknown>>;
  all(sql: string): Promise<Array<Record<string, unknown>>>;
  /** Qualified table name. */
  table(name: string): string;
  /** SQL turning an expression into text. */
  text(expr: string): string;
  /** SQL formatting a timestamp expression as `YYYY-MM-DD HH:mm:ss.SSS` (six fraction digits allowed). */
  timestamp(expr: string): string;
  /** The schema (MySQL: database) holding the tables, for information_schema. */
  schema: string;
}

/** "1234.56" → 123456; anything but exactly two decimals fails, so rounding drift cannot hide. */
export function decimalToCents(value: unknown): number {
  const text = String(value);
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a two-decimal amount: ${text}`);
  const cents = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -cents : cents;
}

function integer(value: unknown): number {
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw new Error(`not an integer: ${text}`);
  return Number(text);
}

/** Drops a trailing "000" of microseconds (MariaDB's %f), leaving any other digits to fail the comparison. */
function timestamp(value: unknown): string | null {
  if (value === null) return null;
  const text = String(value);
  return /\.\d{3}000$/.test(text) ? text.slice(0, -3) : text;
}

export async function engineTotals(db: EngineAccess): Promise<DemoTotals> {
  const { text, timestamp: ts, table } = db;
  const customers = await db.one(
    `SELECT ${text('count(*)')} AS n, ${ts('min(signup_at)')} AS lo, ${ts('max(signup_at)')} AS hi FROM ${table('customers')}`,
  );
  const products = await db.one(`SELECT ${text('count(*)')} AS n, ${text('sum(price)')} AS price, ${text('sum(cost)')} AS cost FROM ${table('products')}`);
  const orders = await db.one(
    `SELECT ${text('count(*)')} AS n, ${text('sum(amount)')} AS amount, ${text('sum(discount)')} AS discount,
            ${ts('min(created_at)')} AS lo, ${ts('max(created_at)')} AS hi FROM ${table('orders')}`,
  );
  const items = await db.one(
    `SELECT ${text('count(*)')} AS n, ${text('sum(quantity)')} AS quantity, ${text('sum(unit_price)')} AS unit_price,
            ${text('sum(quantity * unit_price)')} AS line FROM ${table('order_items')}`,
  );
  return {
    customers: { rows: integer(customers.n), minSignupAt: timestamp(customers.lo), maxSignupAt: timestamp(customers.hi) },
    products: { rows: integer(products.n), priceCents: decimalToCents(products.price), costCents: decimalToCents(products.cost) },
    orders: {
      rows: integer(orders.n),
      amountCents: decimalToCents(orders.amount),
      discountCents: decimalToCents(orders.discount),
      minCreatedAt: timestamp(orders.lo),
      maxCreatedAt: timestamp(orders.hi),
    },
    order_items: {
      rows: integer(items.n),
      quantity: integer(items.quantity),
      unitPriceCents: decimalToCents(items.unit_price),
      lineCents: decimalToCents(items.line),
    },
  };
}

/** Rows breaking a relationship, per check; all zero for a correct load. */
export async function integrityViolations(db: EngineAccess): Promise<Record<string, number>> {
  const { table, text } = db;
  const checks: Record<string, string> = {
    ordersWithoutCustomer: `SELECT ${text('count(*)')} AS n FROM ${table('orders')} o LEFT JOIN ${table('customers')} c ON c.id = o.customer_id WHERE c.id IS NULL`,
    itemsWithoutOrder: `SELECT ${text('count(*)')} AS n FROM ${table('order_items')} i LEFT JOIN ${table('orders')} o ON o.id = i.order_id WHERE o.id IS NULL`,
    itemsWithoutProduct: `SELECT ${text('count(*)')} AS n FROM ${table('order_items')} i LEFT JOIN ${table('products')} p ON p.id = i.product_id WHERE p.id IS NULL`,
    ordersWithoutItems: `SELECT ${text('count(*)')} AS n FROM ${table('orders')} o WHERE NOT EXISTS (SELECT 1 FROM ${table('order_items')} i WHERE i.order_id = o.id)`,
    amountMismatches: `SELECT ${text('count(*)')} AS n FROM ${table('orders')} o
      JOIN (SELECT order_id, sum(quantity * unit_price) AS gross FROM ${table('order_items')} GROUP BY order_id) i ON i.order_id = o.id
      WHERE o.amount <> i.gross - o.discount`,
    priceMismatches: `SELECT ${text('count(*)')} AS n FROM ${table('order_items')} i JOIN ${table('products')} p ON p.id = i.product_id WHERE i.unit_price <> p.price`,
    orderBeforeSignup: `SELECT ${text('count(*)')} AS n FROM ${table('orders')} o JOIN ${table('customers')} c ON c.id = o.customer_id WHERE o.created_at <= c.signup_at`,
  };
  const result: Record<string, number> = {};
  for (const [name, sql] of Object.entries(checks)) result[name] = integer((await db.one(sql)).n);
  return result;
}

/** `table.column type` for every column of the four tables, in table name (code point) then column order. */
export async function columnTypes(db: EngineAccess, typeExpr: string): Promise<string[]> {
  const rows = await db.all(
    `SELECT table_name AS t, column_name AS c, ${typeExpr} AS ty, ${db.text('ordinal_position')} AS o
       FROM information_schema.columns WHERE table_schema = '${db.schema}'`,
  );
  // Sorted here: each engine's collation orders "order_items" and "orders" its own way.
  const key = (r: Record<string, unknown>) => [String(r.t), Number(r.o)] as const;
  rows.sort((a, b) => (key(a)[0] < key(b)[0] ? -1 : key(a)[0] > key(b)[0] ? 1 : key(a)[1] - key(b)[1]));
  return rows.map((r) => `${String(r.t)}.${String(r.c)} ${String(r.ty).toUpperCase()}`);
}
