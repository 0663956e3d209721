// Orders and their items, produced slot by slot in time order so ids rise with created_at. Each order
// goes to a customer who had already signed up, ships mostly to that customer's region, and carries
// 1–5 distinct products at catalogue price; amounts are computed in integer cents.
import type { ActivityWindow, DaySlot } from './calendar.js';
import { timesInSlot } from './calendar.js';
import type { CustomerBase } from './customers.js';
import { WeightedPicker, type Rng } from './prng.js';
import type { OrderItemRow, OrderRow, ProductRow } from './types.js';
import { REGIONS, type Channel, type OrderStatus } from './vocabulary.js';

const DAY_MS = 24 * 3_600_000;
/** Share of orders that go to one of the newest customers, so sign-ups turn into first orders. */
const NEWCOMER_SHARE = 0.25;
const NEWEST_CUSTOMERS_SHARE = 0.05;
const SHIP_ELSEWHERE_SHARE = 0.06;
const ITEM_COUNTS = new WeightedPicker([1, 2, 3, 4, 5], [44, 26, 15, 10, 5]);
const QUANTITIES = new WeightedPicker([1, 2, 3, 4, 5], [72, 17, 6, 3, 2]);
const DISCOUNT_PERCENTS = new WeightedPicker([0, 5, 10, 15, 20, 25], [72, 8, 9, 5, 4, 2]);

export class OrderFactory {
  private nextOrderId = 1;
  private nextItemId = 1;
  /** Customers 1..signedUp had signed up before the current order. */
  private signedUp = 0;

  constructor(
    private readonly rng: Rng,
    private readonly window: ActivityWindow,
    private readonly customers: CustomerBase,
    private readonly products: WeightedPicker<ProductRow>,
  ) {}

  /** Appends `count` orders in `slot` (ascending time) and their items to the given arrays. */
  fillSlot(slot: DaySlot, count: number, orders: OrderRow[], items: OrderItemRow[]): void {
    const times = timesInSlot(this.rng, slot, count);
    for (const createdAtMs of times) orders.push(this.order(createdAtMs, items));
  }

  private order(createdAtMs: number, items: OrderItemRow[]): OrderRow {
    const rng = this.rng;
    const { signupMs, regionIndex } = this.customers;
    while (this.signedUp < this.customers.count && signupMs[this.signedUp]! < createdAtMs) this.signedUp++;
    // At least one customer predates the window, so signedUp >= 1 here.
    let customerIndex: number;
    if (rng() < NEWCOMER_SHARE) {
      const newest = Math.max(1, Math.floor(this.signedUp * NEWEST_CUSTOMERS_SHARE));
      customerIndex = this.signedUp - 1 - Math.floor(rng() * newest);
    } else {
      customerIndex = Math.floor(rng() * this.signedUp);
    }
    const homeRegion = regionIndex[customerIndex]!;
    const shipRegion = rng() < SHIP_ELSEWHERE_SHARE ? (homeRegion + 1 + Math.floor(rng() * (REGIONS.length - 1))) % REGIONS.length : homeRegion;

    const orderId = this.nextOrderId++;
    const itemCount = ITEM_COUNTS.pick(rng);
    const chosen: number[] = [];
    let subtotalCents = 0;
    for (let i = 0; i < itemCount; i++) {
      let product = this.products.pick(rng);
      // Distinct products per order; a few redraws suffice with 200 products.
      for (let tries = 0; chosen.includes(product.id) && tries < 8; tries++) product = this.products.pick(rng);
      if (chosen.includes(product.id)) continue;
      chosen.push(product.id);
      const quantity = QUANTITIES.pick(rng);
      subtotalCents += quantity * product.priceCents;
      items.push({ id: this.nextItemId++, orderId, productId: product.id, quantity, unitPriceCents: product.priceCents });
    }
    const percent = DISCOUNT_PERCENTS.pick(rng);
    // Integer rounding half up: (subtotal × percent) / 100 to the nearest cent, no float involved.
    const discountCents = Math.floor((subtotalCents * percent + 50) / 100);
    return {
      id: orderId,
      customerId: customerIndex + 1,
      status: this.status(createdAtMs),
      channel: this.channel(createdAtMs),
      shipRegion: REGIONS[shipRegion]!,
      createdAtMs,
      amountCents: subtotalCents - discountCents,
      discountCents,
    };
  }

  /** Pending only in the last few days; refunds need time to happen, so recent orders rarely have them. */
  private status(createdAtMs: number): OrderStatus {
    const ageDays = (this.window.endMs - createdAtMs) / DAY_MS;
    const pendingShare = ageDays < 1 ? 0.6 : ageDays < 2 ? 0.3 : ageDays < 4 ? 0.08 : 0;
    const refundedShare = 0.045 * Math.min(1, ageDays / 30);
    const cancelledShare = 0.05;
    const u = this.rng();
    if (u < pendingShare) return 'pending';
    if (u < pendingShare + cancelledShare) return 'cancelled';
    if (u < pendingShare + cancelledShare + refundedShare) return 'refunded';
    return 'completed';
  }

  /** Mobile gains on the web over the two years; marketplaces hold a steady share. */
  private channel(createdAtMs: number): Channel {
    const progress = (createdAtMs - this.window.startMs) / (this.window.endMs - this.window.startMs);
    const mobileShare = 0.22 + 0.18 * progress;
    const u = this.rng();
    if (u < 0.15) return 'marketplace';
    if (u < 0.15 + mobileShare) return 'mobile';
    return 'web';
  }
}
