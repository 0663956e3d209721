// The demo dataset as a stream of table batches: deterministic for (seed, orders, now), and produced
// lazily so loaders can write a million orders without the whole dataset in memory.
import { activityWindow, allocate, daySlots } from './calendar.js';
import { customerRow, planCustomers } from './customers.js';
import { OrderFactory } from './orders.js';
import { createRng } from './prng.js';
import { generateProducts, productPopularity } from './products.js';
import type { CustomerRow, DemoBatch, DemoOptions, OrderItemRow, OrderRow } from './types.js';

export const DEFAULT_DEMO_ORDERS = 100_000;
export const DEFAULT_DEMO_SEED = 42;
const DEFAULT_BATCH_SIZE = 5_000;
const ORDERS_PER_CUSTOMER = 8;

// One PRNG stream per concern (see prng.ts).
const enum Stream {
  Calendar = 1,
  Products,
  Popularity,
  CustomerBase,
  CustomerDetails,
  Orders,
}

export interface ResolvedDemoOptions {
  readonly orders: number;
  readonly seed: number;
  readonly now: Date;
  readonly batchSize: number;
}

export function resolveDemoOptions(options: DemoOptions): ResolvedDemoOptions {
  const orders = options.orders ?? DEFAULT_DEMO_ORDERS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(orders) || orders < 0) throw new RangeError(`orders must be a non-negative integer, got ${orders}`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  if (!(options.now instanceof Date) || Number.isNaN(options.now.getTime())) throw new RangeError('now must be a valid Date');
  return { orders, seed: options.seed ?? DEFAULT_DEMO_SEED, now: new Date(options.now.getTime()), batchSize };
}

export function* generateDemo(options: DemoOptions): Generator<DemoBatch, void, undefined> {
  const { orders: orderCount, seed, now, batchSize } = resolveDemoOptions(options);
  const window = activityWindow(now);
  const slots = daySlots(window, createRng(seed, Stream.Calendar));

  const products = generateProducts(createRng(seed, Stream.Products));
  yield { table: 'products', rows: products };

  const customerCount = Math.max(1, Math.round(orderCount / ORDERS_PER_CUSTOMER));
  const customers = planCustomers(customerCount, window, slots, createRng(seed, Stream.CustomerBase));
  const detailsRng = createRng(seed, Stream.CustomerDetails);
  for (let first = 1; first <= customerCount; first += batchSize) {
    const rows: CustomerRow[] = [];
    for (let id = first; id < first + batchSize && id <= customerCount; id++) rows.push(customerRow(customers, id, detailsRng));
    yield { table: 'customers', rows };
  }

  const factory = new OrderFactory(createRng(seed, Stream.Orders), window, customers, productPopularity(createRng(seed, Stream.Popularity), products));
  const perSlot = allocate(orderCount, slots.map((s) => s.weight));
  let orders: OrderRow[] = [];
  let items: OrderItemRow[] = [];
  for (let i = 0; i < slots.length; i++) {
    if (perSlot[i]! > 0) factory.fillSlot(slots[i]!, perSlot[i]!, orders, items);
    // A busy day may overshoot batchSize; batches are a transport detail, not part of the data.
    if (orders.length >= batchSize) {
      yield { table: 'orders', rows: orders };
      yield { table: 'order_items', rows: items };
      orders = [];
      items = [];
    }
  }
  if (orders.length > 0) {
    yield { table: 'orders', rows: orders };
    yield { table: 'order_items', rows: items };
  }
}
