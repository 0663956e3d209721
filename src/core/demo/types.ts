// Rows as the generator produces them: money in integer cents and instants in epoch milliseconds (UTC),
// turned into DECIMAL(12,2) and zone-less TIMESTAMP text only by the loaders (see format.ts).
import type { Channel, OrderStatus, Region, Segment } from './vocabulary.js';

export interface CustomerRow {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly region: Region;
  readonly country: string;
  readonly segment: Segment;
  readonly signupAtMs: number;
}

export interface ProductRow {
  readonly id: number;
  readonly name: string;
  readonly category: string;
  readonly priceCents: number;
  readonly costCents: number;
}

export interface OrderRow {
  readonly id: number;
  readonly customerId: number;
  readonly status: OrderStatus;
  readonly channel: Channel;
  readonly shipRegion: Region;
  readonly createdAtMs: number;
  /** Sum of the items' quantity × unit price, minus the discount. */
  readonly amountCents: number;
  readonly discountCents: number;
}

export interface OrderItemRow {
  readonly id: number;
  readonly orderId: number;
  readonly productId: number;
  readonly quantity: number;
  readonly unitPriceCents: number;
}

export const DEMO_TABLES = ['customers', 'products', 'orders', 'order_items'] as const;
export type DemoTable = (typeof DEMO_TABLES)[number];

/**
 * One slice of one table. The stream gives products and customers first, then each orders batch
 * followed by the items of exactly those orders, so every reference points at a row already given.
 */
export type DemoBatch =
  | { readonly table: 'products'; readonly rows: readonly ProductRow[] }
  | { readonly table: 'customers'; readonly rows: readonly CustomerRow[] }
  | { readonly table: 'orders'; readonly rows: readonly OrderRow[] }
  | { readonly table: 'order_items'; readonly rows: readonly OrderItemRow[] };

export interface DemoOptions {
  /** Number of orders over the two years (default 100,000). */
  readonly orders?: number;
  /** Any safe integer (default 42). */
  readonly seed?: number;
  /** The window's exclusive end; with `seed` and `orders` it fixes every row. */
  readonly now: Date;
  /** Rows per batch (default 5,000; an orders batch's items may be a few times more). Does not change the rows. */
  readonly batchSize?: number;
}

export type TableCounts = Record<DemoTable, number>;

export interface LoadResult {
  readonly counts: TableCounts;
  readonly elapsedMs: number;
}
