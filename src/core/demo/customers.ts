// Customers: who signed up when, where they live and what they are called. Only the two facts orders
// need later (sign-up instant, region) are kept for every customer, in typed arrays; the rest of a
// row is drawn when its batch is produced, so a million-order dataset stays small in memory.
import { allocate, timesInSlot, type ActivityWindow, type DaySlot } from './calendar.js';
import { pickOne, WeightedPicker, type Rng } from './prng.js';
import type { CustomerRow } from './types.js';
import { COUNTRIES, FIRST_NAMES, LAST_NAMES, REGION_SHARES, REGIONS, SEGMENT_SHARES, SEGMENTS, type Region } from './vocabulary.js';

/** Share of customers who already existed when the window opens (they signed up in the year before). */
const EXISTING_SHARE = 0.3;
const YEAR_MS = 365 * 24 * 3_600_000;

export interface CustomerBase {
  readonly count: number;
  /** Ascending: customer id `i + 1` signed up at `signupMs[i]`. */
  readonly signupMs: Float64Array;
  /** Index into REGIONS. */
  readonly regionIndex: Uint8Array;
}

export function planCustomers(count: number, window: ActivityWindow, slots: readonly DaySlot[], rng: Rng): CustomerBase {
  const existing = Math.max(1, Math.round(count * EXISTING_SHARE));
  const signupMs = new Float64Array(count);
  const before = new Float64Array(existing);
  for (let i = 0; i < existing; i++) before[i] = window.startMs - 1 - Math.floor(rng() * YEAR_MS);
  signupMs.set(before.sort());
  // Newcomers follow the same curve as orders: growth, seasons and holidays.
  const perSlot = allocate(count - existing, slots.map((s) => s.weight));
  let next = existing;
  slots.forEach((slot, i) => {
    if (perSlot[i]! > 0) {
      signupMs.set(timesInSlot(rng, slot, perSlot[i]!), next);
      next += perSlot[i]!;
    }
  });
  const regions = new WeightedPicker(REGIONS.map((_, i) => i), REGION_SHARES);
  const regionIndex = new Uint8Array(count);
  for (let i = 0; i < count; i++) regionIndex[i] = regions.pick(rng);
  return { count, signupMs, regionIndex };
}

const COUNTRY_PICKERS = Object.fromEntries(
  REGIONS.map((region) => [region, new WeightedPicker(COUNTRIES[region].map(([c]) => c), COUNTRIES[region].map(([, share]) => share))]),
) as Record<Region, WeightedPicker<string>>;
const SEGMENT_PICKER = new WeightedPicker(SEGMENTS, SEGMENT_SHARES);

/** The full row of customer `id`; call in id order with one `rng` for a reproducible stream. */
export function customerRow(base: CustomerBase, id: number, rng: Rng): CustomerRow {
  const region = REGIONS[base.regionIndex[id - 1]!]!;
  const first = pickOne(rng, FIRST_NAMES);
  const last = pickOne(rng, LAST_NAMES);
  const segment = SEGMENT_PICKER.pick(rng);
  // The id keeps e-mails unique; the local part is plain ASCII whatever the name.
  const local = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.-]/g, '').toLowerCase();
  return {
    id,
    name: `${first} ${last}`,
    email: `${local}.${id}@example.com`,
    region,
    country: COUNTRY_PICKERS[region].pick(rng),
    segment,
    signupAtMs: base.signupMs[id - 1]!,
  };
}
