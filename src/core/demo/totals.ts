// Per-table checksums of a demo dataset: what any engine holding it must report for count(*), sums
// and min/max timestamps. Sums are exact integers (cents, units); timestamps are the loaders' text form.
import { formatUtcTimestamp } from './format.js';
import type { DemoBatch } from './types.js';

export interface DemoTotals {
  readonly customers: { rows: number; minSignupAt: string | null; maxSignupAt: string | null };
  readonly products: { rows: number; priceCents: number; costCents: number };
  readonly orders: { rows: number; amountCents: number; discountCents: number; minCreatedAt: string | null; maxCreatedAt: string | null };
  readonly order_items: { rows: number; quantity: number; unitPriceCents: number; lineCents: number };
}

/** Consumes a batch stream (e.g. `generateDemo(...)`) and returns its totals. */
export function summariseDemo(batches: Iterable<DemoBatch>): DemoTotals {
  let customers = 0;
  let minSignup = Infinity;
  let maxSignup = -Infinity;
  let products = 0;
  let priceCents = 0;
  let costCents = 0;
  let orders = 0;
  let amountCents = 0;
  let discountCents = 0;
  let minCreated = Infinity;
  let maxCreated = -Infinity;
  let items = 0;
  let quantity = 0;
  let unitPriceCents = 0;
  let lineCents = 0;
  for (const batch of batches) {
    switch (batch.table) {
      case 'customers':
        customers += batch.rows.length;
        for (const r of batch.rows) {
          minSignup = Math.min(minSignup, r.signupAtMs);
          maxSignup = Math.max(maxSignup, r.signupAtMs);
        }
        break;
      case 'products':
        products += batch.rows.length;
        for (const r of batch.rows) {
          priceCents += r.priceCents;
          costCents += r.costCents;
        }
        break;
      case 'orders':
        orders += batch.rows.length;
        for (const r of batch.rows) {
          amountCents += r.amountCents;
          discountCents += r.discountCents;
          minCreated = Math.min(minCreated, r.createdAtMs);
          maxCreated = Math.max(maxCreated, r.createdAtMs);
        }
        break;
      case 'order_items':
        items += batch.rows.length;
        for (const r of batch.rows) {
          quantity += r.quantity;
          unitPriceCents += r.unitPriceCents;
          lineCents += r.quantity * r.unitPriceCents;
        }
        break;
    }
  }
  const ts = (ms: number) => (Number.isFinite(ms) ? formatUtcTimestamp(ms) : null);
  return {
    customers: { rows: customers, minSignupAt: ts(minSignup), maxSignupAt: ts(maxSignup) },
    products: { rows: products, priceCents, costCents },
    orders: { rows: orders, amountCents, discountCents, minCreatedAt: ts(minCreated), maxCreatedAt: ts(maxCreated) },
    order_items: { rows: items, quantity, unitPriceCents, lineCents },
  };
}
