// Which time buckets are made of whole buckets of another grain: what both the CML linker (does a
// partition hold whole rollup buckets?) and rollup matching (can a month rollup answer by quarter?)
// decide. Weeks are the odd one out: days and hours make whole weeks, but weeks do not make months.
import { GRANULARITIES, type Granularity } from './model.js';

/** True when every bucket of `coarse` is a union of whole buckets of `fine` (so `fine` can be rolled up to it). */
export function buildsUp(fine: Granularity, coarse: Granularity): boolean {
  if (fine === coarse) return true;
  if (GRANULARITIES.indexOf(fine) > GRANULARITIES.indexOf(coarse)) return false;
  return fine !== 'week';
}

export function finerThan(a: Granularity, b: Granularity): boolean {
  return GRANULARITIES.indexOf(a) < GRANULARITIES.indexOf(b);
}
