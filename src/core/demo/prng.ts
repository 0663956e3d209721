// A small seeded PRNG (sfc32) and the draws the generator needs. Hand-written instead of a dependency so
// the dataset for a given seed can never change under us with a library upgrade.

export type Rng = () => number;

/** splitmix32: spreads a (seed, stream) pair into well-mixed 32-bit words for sfc32's state. */
function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * A uniform float in [0, 1). Each part of the dataset draws from its own `stream`, so adding a draw to
 * one part (say, order items) does not shift every value of another (say, customers).
 */
export function createRng(seed: number, stream: number): Rng {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  // Both halves of the seed count, so seeds that differ only above 2^32 still differ.
  const high = Math.floor(seed / 0x1_0000_0000);
  const mix = splitmix32((seed ^ Math.imul(high, 0x27d4eb2d) ^ Math.imul(stream + 1, 0x165667b1)) >>> 0);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next: Rng = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 0x1_0000_0000;
  };
  // The first outputs of sfc32 still echo the seed; discard them as its author recommends.
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** An integer in [min, max], both inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pickOne<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** Draws indices (or items) with fixed relative weights, by binary search over cumulative weights. */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    private readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new RangeError('one weight per item, at least one item');
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  index(rng: Rng): number {
    const target = rng() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  pick(rng: Rng): T {
    return this.items[this.index(rng)]!;
  }
}
