// Draws and calendar arithmetic shared by the unseen domains' generators (the PRNG is the demo's).
import type { Rng } from '../../../src/core/demo/prng.js';

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** Epoch ms of midnight UTC of a 'YYYY-MM-DD' day. */
export const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** Every day from `first` up to, not including, `end` ('YYYY-MM-DD'). */
export function* days(first: string, end: string): Generator<string> {
  for (let ms = dayMs(first); ms < dayMs(end); ms += DAY_MS) yield new Date(ms).toISOString().slice(0, 10);
}

export const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** A standard normal draw (Box–Muller). */
export function normal(rng: Rng): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** A Poisson draw (Knuth's method; fine for the small means used here). */
export function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}

/** Day of the year in [0, 1): 0 at January 1, 0.5 about July 2. */
export const yearFraction = (day: string): number => (dayMs(day) - dayMs(`${day.slice(0, 4)}-01-01`)) / (365.25 * DAY_MS);
