// The catalogue: 200 products over eight categories, with prices inside each category's range and a
// margin that varies by product; and how popular each product is (a few best sellers, a long tail).
import { intBetween, pickOne, WeightedPicker, type Rng } from './prng.js';
import type { ProductRow } from './types.js';
import { CATEGORIES, PRODUCT_ADJECTIVES } from './vocabulary.js';

export function generateProducts(rng: Rng): ProductRow[] {
  const products: ProductRow[] = [];
  for (const category of CATEGORIES) {
    for (let i = 0; i < category.products; i++) {
      // Log-uniform: cheap items are more common than expensive ones within a category.
      const logMin = Math.log(category.minPriceCents);
      const logMax = Math.log(category.maxPriceCents);
      const raw = Math.exp(logMin + rng() * (logMax - logMin));
      // Shop prices end in .99 or .49.
      const priceCents = Math.max(99, Math.floor(raw / 100) * 100 + (rng() < 0.7 ? 99 : 49));
      const costCents = Math.round(priceCents * (0.35 + 0.4 * rng()));
      const name = `${pickOne(rng, PRODUCT_ADJECTIVES)} ${pickOne(rng, category.nouns)} ${intBetween(rng, 1, 9)}${pickOne(rng, ['', '00', ' Plus', ' Mini', ' Max'])}`;
      products.push({ id: products.length + 1, name, category: category.name, priceCents, costCents });
    }
  }
  return products;
}

/** Zipf-like popularity over a shuffled catalogue, so best sellers are spread across categories. */
export function productPopularity(rng: Rng, products: readonly ProductRow[]): WeightedPicker<ProductRow> {
  const order = products.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const weights = new Array<number>(products.length);
  order.forEach((productIndex, rank) => (weights[productIndex] = 1 / Math.pow(rank + 1, 0.9)));
  return new WeightedPicker(products, weights);
}
