// Expected results computed without the compiler or any SQL engine: the generator's rows joined,
// filtered, grouped and aggregated in plain JavaScript, with time zones from Intl. Each engine's answer
// is checked against these rows, so a mistake every dialect shares (an off-by-one bound, a wrong
// week) fails instead of passing as "the engines agree".
import { generateDemo } from '../../src/core/demo/index.js';
import type { CustomerRow, DemoOptions, OrderItemRow, OrderRow, ProductRow } from '../../src/core/demo/types.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';

/** One order with its customer and, when a query reaches the items, one of its items (a LEFT JOIN). */
export interface JoinedRow {
  readonly order: OrderRow;
  readonly customer: CustomerRow;
  readonly item?: OrderItemRow;
  readonly product?: ProductRow;
  /** The order's creation as wall-clock text in the query's zone: `YYYY-MM-DD HH:mm:ss.SSS`. */
  readonly wall: string;
}

type Value = string | number | null;

export interface ReferenceDimension {
  /** True when the value comes from order_items or products, so the items must be joined. */
  readonly items?: boolean;
  value(row: JoinedRow): Value;
}

export interface ReferenceMeasure {
  /** The node whose distinct rows the measure aggregates (rows repeat across a one-to-many join). */
  readonly node: 'orders' | 'customers' | 'order_items';
  value(rows: { orders: OrderRow[]; customers: CustomerRow[]; items: OrderItemRow[] }): Value;
}

export interface ReferenceQuery {
  readonly dimensions: readonly string[];
  readonly measures: readonly string[];
  /** Dimension filters and data keys, written by hand for each case. */
  readonly where?: (row: JoinedRow) => boolean;
  /** Measure filters: `measure(id)` is any measure's value for the group, asked for or not. */
  readonly having?: (measure: (id: string) => Value) => boolean;
  readonly timezone?: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const cents = (total: number) => total / 100;
const sum = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) : null);

/** Wall-clock fields of an instant in the formatter's zone, from Intl (not from any engine's zone data). */
function wallFields(ms: number, format: Intl.DateTimeFormat) {
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), mo: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), mi: Number(parts.minute), s: Number(parts.second), ms: ms % 1000 };
}

/** `YYYY-MM-DDTHH:mm:ss.000`, as every engine's driver returns a zone-less timestamp. */
const stamp = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.000`;

/** The wall time of a row parsed back into calendar fields (day arithmetic done on a UTC date). */
function calendar(wall: string) {
  const [y, mo, d, h, mi, s] = wall.split(/[- :.]/).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d));
  const isoDay = ((date.getUTCDay() + 6) % 7) + 1; // Monday 1 … Sunday 7
  return { y, mo, d, h, mi, s, date, isoDay };
}

const DAY_MS = 86_400_000;

/** ISO 8601 week number: the week (Monday to Sunday) holding the year's first Thursday is week 1. */
function isoWeek(date: Date, isoDay: number): number {
  const thursday = new Date(date.getTime() + (4 - isoDay) * DAY_MS);
  const januaryFirst = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return Math.floor((thursday.getTime() - januaryFirst) / DAY_MS / 7) + 1;
}

/** created_at at every granularity and date part, from the row's wall time. */
export const TIME_DIMENSIONS: Record<string, (wall: string) => Value> = {
  second: (w) => { const c = calendar(w); return stamp(c.y, c.mo, c.d, c.h, c.mi, c.s); },
  minute: (w) => { const c = calendar(w); return stamp(c.y, c.mo, c.d, c.h, c.mi); },
  hour: (w) => { const c = calendar(w); return stamp(c.y, c.mo, c.d, c.h); },
  day: (w) => { const c = calendar(w); return stamp(c.y, c.mo, c.d); },
  week: (w) => {
    const c = calendar(w);
    const monday = new Date(c.date.getTime() - (c.isoDay - 1) * DAY_MS);
    return stamp(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate());
  },
  month: (w) => { const c = calendar(w); return stamp(c.y, c.mo, 1); },
  quarter: (w) => { const c = calendar(w); return stamp(c.y, c.mo - ((c.mo - 1) % 3), 1); },
  year: (w) => stamp(calendar(w).y, 1, 1),
  hour_of_day: (w) => calendar(w).h,
  day_of_week: (w) => calendar(w).isoDay,
  day_of_month: (w) => calendar(w).d,
  day_of_year: (w) => { const c = calendar(w); return (c.date.getTime() - Date.UTC(c.y, 0, 1)) / DAY_MS + 1; },
  week_of_year: (w) => { const c = calendar(w); return isoWeek(c.date, c.isoDay); },
  month_of_year: (w) => calendar(w).mo,
  quarter_of_year: (w) => Math.ceil(calendar(w).mo / 3),
};

/** The demo model's fields (test/semantic/fixture.ts), each computed from the generated rows. */
export const REFERENCE_DIMENSIONS: Record<string, ReferenceDimension> = {
  id: { value: (r) => r.order.id },
  status: { value: (r) => r.order.status },
  channel: { value: (r) => r.order.channel },
  region: { value: (r) => r.order.shipRegion },
  'customers.name': { value: (r) => r.customer.name },
  'customers.segment': { value: (r) => r.customer.segment },
  'customers.region': { value: (r) => r.customer.region },
  'products.category': { items: true, value: (r) => r.product?.category ?? null },
  ...Object.fromEntries(Object.entries(TIME_DIMENSIONS).map(([name, value]) => [`created_at.${name}`, { value: (r: JoinedRow) => value(r.wall) }])),
};

export const REFERENCE_MEASURES: Record<string, ReferenceMeasure> = {
  order_count: { node: 'orders', value: ({ orders }) => orders.length },
  revenue: { node: 'orders', value: ({ orders }) => nullable(sum(orders.map((o) => o.amountCents)), cents) },
  completed_revenue: { node: 'orders', value: ({ orders }) => nullable(sum(orders.filter((o) => o.status === 'completed').map((o) => o.amountCents)), cents) },
  avg_order_value: { node: 'orders', value: ({ orders }) => (orders.length ? cents(sum(orders.map((o) => o.amountCents))!) / orders.length : null) },
  buyers: { node: 'orders', value: ({ orders }) => new Set(orders.map((o) => o.customerId)).size },
  revenue_per_order: { node: 'orders', value: ({ orders }) => (orders.length ? cents(sum(orders.map((o) => o.amountCents))!) / orders.length : null) },
  completed_orders: { node: 'orders', value: ({ orders }) => orders.filter((o) => o.status === 'completed').length },
  // Ratios: the quotient of the group's two measures, none when the denominator is 0.
  completed_share: { node: 'orders', value: ({ orders }) => quotient(orders.filter((o) => o.status === 'completed').length, orders.length) },
  revenue_per_completed_order: {
    node: 'orders',
    value: ({ orders }) => quotient(nullable(sum(orders.map((o) => o.amountCents)), cents), orders.filter((o) => o.status === 'completed').length),
  },
  'customers.customer_count': { node: 'customers', value: ({ customers }) => customers.length },
  'order_items.units': { node: 'order_items', value: ({ items }) => sum(items.map((i) => i.quantity)) },
  'order_items.line_count': { node: 'order_items', value: ({ items }) => items.length },
  'order_items.units_per_line': { node: 'order_items', value: ({ items }) => quotient(sum(items.map((i) => i.quantity)), items.length) },
};

function quotient(numerator: number | null, denominator: number | null): number | null {
  return numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator;
}

function nullable(value: number | null, map: (v: number) => number): number | null {
  return value === null ? null : map(value);
}

/** The generated demo, held in memory once, answering reference queries. */
export class DemoReference {
  private readonly customers = new Map<number, CustomerRow>();
  private readonly products = new Map<number, ProductRow>();
  private readonly orders: OrderRow[] = [];
  private readonly itemsByOrder = new Map<number, OrderItemRow[]>();
  private readonly walls = new Map<string, string[]>();

  constructor(demo: DemoOptions) {
    for (const batch of generateDemo(demo)) {
      if (batch.table === 'customers') for (const row of batch.rows) this.customers.set(row.id, row);
      if (batch.table === 'products') for (const row of batch.rows) this.products.set(row.id, row);
      if (batch.table === 'orders') this.orders.push(...batch.rows);
      if (batch.table === 'order_items') for (const row of batch.rows) this.itemsByOrder.set(row.orderId, [...(this.itemsByOrder.get(row.orderId) ?? []), row]);
    }
  }

  /** Every order's creation as wall-clock text in `timezone`, computed once per zone. */
  private wallsIn(timezone: string): string[] {
    let walls = this.walls.get(timezone);
    if (!walls) {
      const format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
      walls = this.orders.map((o) => {
        const f = wallFields(o.createdAtMs, format);
        return `${f.y}-${pad(f.mo)}-${pad(f.d)} ${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}.${pad(f.ms, 3)}`;
      });
      this.walls.set(timezone, walls);
    }
    return walls;
  }

  /** Orders joined to their customer and, when `withItems`, to each item and its product. */
  joined(timezone: string, withItems: boolean): JoinedRow[] {
    const walls = this.wallsIn(timezone);
    return this.orders.flatMap((order, i) => {
      const base = { order, customer: this.customers.get(order.customerId)!, wall: walls[i]! };
      if (!withItems) return [base];
      const items = this.itemsByOrder.get(order.id) ?? [];
      if (!items.length) return [base];
      return items.map((item) => ({ ...base, item, product: this.products.get(item.productId)! }));
    });
  }

  /** The rows a query should give, in no particular order. */
  rows(query: ReferenceQuery): WarehouseRow[] {
    const dimensions = query.dimensions.map((id) => [id, known(REFERENCE_DIMENSIONS, id)] as const);
    const measures = query.measures.map((id) => [id, known(REFERENCE_MEASURES, id)] as const);
    const withItems = dimensions.some(([, d]) => d.items) || measures.some(([, m]) => m.node === 'order_items');
    const rows = this.joined(query.timezone ?? 'UTC', withItems).filter((row) => query.where?.(row) ?? true);

    const groups = new Map<string, { key: Value[]; rows: JoinedRow[] }>();
    for (const row of rows) {
      const key = dimensions.map(([, d]) => d.value(row));
      const text = JSON.stringify(key);
      const group = groups.get(text) ?? groups.set(text, { key, rows: [] }).get(text)!;
      group.rows.push(row);
    }
    // Without dimensions an aggregate query answers one row, even over no rows at all.
    if (!dimensions.length && !groups.size) groups.set('[]', { key: [], rows: [] });

    const result: WarehouseRow[] = [];
    for (const { key, rows: members } of groups.values()) {
      const distinct = {
        orders: [...new Map(members.map((r) => [r.order.id, r.order])).values()],
        customers: [...new Map(members.map((r) => [r.customer.id, r.customer])).values()],
        items: [...new Map(members.filter((r) => r.item).map((r) => [r.item!.id, r.item!])).values()],
      };
      const measure = (id: string) => {
        const field = known(REFERENCE_MEASURES, id);
        if (field.node === 'order_items' && !withItems) throw new Error(`Ask for ${id} in measures too, so that the items are joined`);
        return field.value(distinct);
      };
      if (query.having && !query.having(measure)) continue;
      const values = Object.fromEntries(measures.map(([id, m]) => [id, m.value(distinct)]));
      result.push({ ...Object.fromEntries(dimensions.map(([id], i) => [id, key[i] ?? null])), ...values });
    }
    return result;
  }
}

function known<T>(fields: Record<string, T>, id: string): T {
  const field = fields[id];
  if (!field) throw new Error(`The reference does not compute ${id}`);
  return field;
}
