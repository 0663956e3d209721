// The generator on its own (no I/O): reproducible for a seed, different across seeds, and every row
// within the schema's rules: sets, keys, money that adds up, time inside the two-year window.
import { createHash, type Hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  generateDemo,
  ORDER_STATUSES,
  REGIONS,
  SEGMENTS,
  summariseDemo,
  type CustomerRow,
  type DemoBatch,
  type DemoOptions,
  type OrderItemRow,
  type OrderRow,
  type ProductRow,
} from '../../src/core/demo/index.js';
import { allocate } from '../../src/core/demo/calendar.js';
import { createRng } from '../../src/core/demo/prng.js';

const NOW = new Date('2025-06-15T10:30:00.000Z');
const DAY_MS = 86_400_000;

/**
 * SHA-256 of every table's rows in order. Hashed per table, because how orders and items batches
 * interleave depends on the batch size while the rows themselves must not.
 */
function streamHash(options: DemoOptions): string {
  const hashes = new Map<string, Hash>();
  for (const batch of generateDemo(options)) {
    const hash = hashes.get(batch.table) ?? hashes.set(batch.table, createHash('sha256')).get(batch.table)!;
    for (const row of batch.rows) hash.update(`${JSON.stringify(row)}\n`);
  }
  return [...hashes].map(([table, hash]) => `${table}:${hash.digest('hex')}`).join(' ');
}

interface Dataset {
  products: ProductRow[];
  customers: CustomerRow[];
  orders: OrderRow[];
  items: OrderItemRow[];
  tables: DemoBatch['table'][];
}

function collect(options: DemoOptions): Dataset {
  const data: Dataset = { products: [], customers: [], orders: [], items: [], tables: [] };
  for (const batch of generateDemo(options)) {
    data.tables.push(batch.table);
    if (batch.table === 'products') data.products.push(...batch.rows);
    if (batch.table === 'customers') data.customers.push(...batch.rows);
    if (batch.table === 'orders') data.orders.push(...batch.rows);
    if (batch.table === 'order_items') data.items.push(...batch.rows);
  }
  return data;
}

const share = (rows: readonly OrderRow[], keep: (o: OrderRow) => boolean) => rows.filter(keep).length / rows.length;

describe('determinism', () => {
  it('gives identical rows for the same seed, orders and now', () => {
    const options = { orders: 20_000, seed: 7, now: NOW };
    expect(streamHash(options)).toBe(streamHash({ ...options }));
  });

  it('does not depend on the batch size', () => {
    const options = { orders: 20_000, seed: 7, now: NOW };
    expect(streamHash({ ...options, batchSize: 333 })).toBe(streamHash({ ...options, batchSize: 50_000 }));
  });

  it('changes with the seed, the order count and now', () => {
    const base = streamHash({ orders: 5_000, seed: 7, now: NOW });
    expect(streamHash({ orders: 5_000, seed: 8, now: NOW })).not.toBe(base);
    expect(streamHash({ orders: 5_000, seed: 7 + 2 ** 32, now: NOW })).not.toBe(base);
    expect(streamHash({ orders: 5_001, seed: 7, now: NOW })).not.toBe(base);
    expect(streamHash({ orders: 5_000, seed: 7, now: new Date(NOW.getTime() + 1) })).not.toBe(base);
  });

  it('defaults to seed 42 and 100,000 orders', () => {
    const totals = summariseDemo(generateDemo({ now: NOW }));
    expect(totals.orders.rows).toBe(100_000);
    expect(streamHash({ orders: 2_000, now: NOW })).toBe(streamHash({ orders: 2_000, seed: 42, now: NOW }));
  });

  it('seeds the PRNG per stream, reproducibly, within [0, 1)', () => {
    const draw = (seed: number, stream: number) => Array.from({ length: 1000 }, createRng(seed, stream));
    expect(draw(1, 1)).toEqual(draw(1, 1));
    expect(draw(1, 1)).not.toEqual(draw(1, 2));
    expect(draw(1, 1)).not.toEqual(draw(2, 1));
    expect(draw(3, 3).every((u) => u >= 0 && u < 1)).toBe(true);
    expect(() => createRng(1.5, 1)).toThrow(RangeError);
  });
});

describe('rows', () => {
  const data = collect({ orders: 30_000, seed: 11, now: NOW });
  const start = new Date('2023-06-15T10:30:00.000Z').getTime();

  it('has the expected sizes and stream order', () => {
    expect(data.products).toHaveLength(200);
    expect(new Set(data.products.map((p) => p.category)).size).toBe(8);
    expect(data.customers).toHaveLength(30_000 / 8);
    expect(data.orders).toHaveLength(30_000);
    expect(data.items.length).toBeGreaterThan(30_000 * 1.7);
    expect(data.items.length).toBeLessThan(30_000 * 2.5);
    // Products, then customers, then each orders batch followed by its items.
    expect(data.tables[0]).toBe('products');
    const firstOrders = data.tables.indexOf('orders');
    expect(data.tables.slice(1, firstOrders).every((t) => t === 'customers')).toBe(true);
    data.tables.slice(firstOrders).forEach((t, i) => expect(t).toBe(i % 2 === 0 ? 'orders' : 'order_items'));
  });

  // Invariants collect the offending rows and assert once: a failure names them, and 100k expect()
  // calls would dominate the run time.
  it('numbers ids 1..n in every table', () => {
    for (const rows of [data.products, data.customers, data.orders, data.items]) {
      expect(rows.filter((row, i) => row.id !== i + 1)).toEqual([]);
    }
  });

  it('keeps every reference valid and every order after its customer signed up', () => {
    const customers = new Map(data.customers.map((c) => [c.id, c]));
    const products = new Map(data.products.map((p) => [p.id, p]));
    const orderIds = new Set(data.orders.map((o) => o.id));
    expect(data.orders.filter((o) => !((customers.get(o.customerId)?.signupAtMs ?? Infinity) < o.createdAtMs))).toEqual([]);
    expect(data.items.filter((i) => !orderIds.has(i.orderId) || products.get(i.productId)?.priceCents !== i.unitPriceCents)).toEqual([]);
  });

  it('makes every amount the items total minus the discount, in whole cents', () => {
    const byOrder = new Map<number, OrderItemRow[]>();
    for (const item of data.items) {
      const list = byOrder.get(item.orderId);
      if (list) list.push(item);
      else byOrder.set(item.orderId, [item]);
    }
    const wrong = data.orders.filter((order) => {
      const items = byOrder.get(order.id) ?? [];
      const gross = items.reduce((sum, i) => sum + i.quantity * i.unitPriceCents, 0);
      return (
        items.length < 1 ||
        items.length > 5 ||
        new Set(items.map((i) => i.productId)).size !== items.length ||
        order.amountCents !== gross - order.discountCents ||
        order.discountCents < 0 ||
        order.discountCents > Math.round(gross * 0.25) ||
        order.amountCents <= 0 ||
        ![order.amountCents, order.discountCents, ...items.map((i) => i.unitPriceCents)].every(Number.isInteger)
      );
    });
    expect(wrong).toEqual([]);
    expect(data.orders.filter((o) => o.discountCents > 0).length).toBeGreaterThan(0);
    expect(data.items.filter((i) => !Number.isInteger(i.quantity) || i.quantity < 1)).toEqual([]);
    expect(data.products.filter((p) => !Number.isInteger(p.priceCents) || !Number.isInteger(p.costCents) || p.costCents >= p.priceCents)).toEqual([]);
  });

  it('places orders within [now − 2 years, now), ascending with their ids', () => {
    const outside = data.orders.filter((o, i) => {
      const previous = i === 0 ? -Infinity : data.orders[i - 1]!.createdAtMs;
      return !Number.isInteger(o.createdAtMs) || o.createdAtMs < start || o.createdAtMs >= NOW.getTime() || o.createdAtMs < previous;
    });
    expect(outside).toEqual([]);
    expect(data.customers.filter((c) => c.signupAtMs >= NOW.getTime())).toEqual([]);
  });

  it('uses only the allowed statuses, channels, regions and segments, with sensible shares', () => {
    const has = (set: readonly string[], value: string) => set.includes(value);
    expect(data.orders.filter((o) => !has(ORDER_STATUSES, o.status) || !has(CHANNELS, o.channel) || !has(REGIONS, o.shipRegion))).toEqual([]);
    expect(
      data.customers.filter((c) => !has(REGIONS, c.region) || !has(SEGMENTS, c.segment) || !/^[a-z.-]+\.\d+@example\.com$/.test(c.email)),
    ).toEqual([]);
    expect(share(data.orders, (o) => o.status === 'completed')).toBeGreaterThan(0.85);
    expect(share(data.orders, (o) => o.status === 'cancelled')).toBeGreaterThan(0.03);
    expect(share(data.orders, (o) => o.status === 'refunded')).toBeGreaterThan(0.02);
    // Pending only in the last few days.
    const pending = data.orders.filter((o) => o.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.filter((o) => NOW.getTime() - o.createdAtMs >= 4 * DAY_MS)).toEqual([]);
    for (const channel of CHANNELS) expect(share(data.orders, (o) => o.channel === channel)).toBeGreaterThan(0.1);
  });

  it('ships mostly to the customer’s own region', () => {
    const regionOf = new Map(data.customers.map((c) => [c.id, c.region]));
    const home = share(data.orders, (o) => o.shipRegion === regionOf.get(o.customerId));
    expect(home).toBeGreaterThan(0.9);
    expect(home).toBeLessThan(1);
  });

  it('grows, peaks before the holidays and slows on Saturdays', () => {
    const perDay = (from: string, to: string) =>
      data.orders.filter((o) => o.createdAtMs >= Date.parse(from) && o.createdAtMs < Date.parse(to)).length /
      ((Date.parse(to) - Date.parse(from)) / DAY_MS);
    expect(perDay('2025-03-01', '2025-06-01')).toBeGreaterThan(1.4 * perDay('2023-07-01', '2023-10-01'));
    expect(perDay('2024-11-15', '2024-12-20')).toBeGreaterThan(1.25 * perDay('2024-09-01', '2024-10-15'));
    expect(perDay('2025-01-05', '2025-02-28')).toBeLessThan(perDay('2024-11-15', '2024-12-20'));
    const weekday = (day: number) => share(data.orders, (o) => new Date(o.createdAtMs).getUTCDay() === day);
    expect(weekday(1)).toBeGreaterThan(1.15 * weekday(6));
  });
});

describe('edges', () => {
  it('keeps a leap-day now inside its window (two years back is March 1st)', () => {
    const now = new Date('2024-02-29T12:00:00.000Z');
    const data = collect({ orders: 3_000, seed: 5, now });
    const start = Date.parse('2022-03-01T12:00:00.000Z');
    expect(data.orders.filter((o) => o.createdAtMs < start || o.createdAtMs >= now.getTime())).toEqual([]);
  });

  it('handles tiny datasets and rejects invalid options', () => {
    const none = summariseDemo(generateDemo({ orders: 0, now: NOW }));
    expect(none.orders.rows).toBe(0);
    expect(none.order_items.rows).toBe(0);
    expect(none.customers.rows).toBe(1);
    expect(summariseDemo(generateDemo({ orders: 1, now: NOW })).orders.rows).toBe(1);
    expect(() => [...generateDemo({ orders: -1, now: NOW })]).toThrow(RangeError);
    expect(() => [...generateDemo({ orders: 10, now: new Date(Number.NaN) })]).toThrow(RangeError);
    expect(() => [...generateDemo({ orders: 10, now: NOW, batchSize: 0 })]).toThrow(RangeError);
  });

  it('splits counts over weights exactly', () => {
    const counts = allocate(1_000, [0.3, 0.3, 0.3, 0.1, 0]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1_000);
    expect(Array.from(counts)).toEqual([300, 300, 300, 100, 0]);
    expect(Array.from(allocate(2, [1, 1, 1]))).toEqual([1, 1, 0]);
  });
});
