// A second-hand marketplace: shops (sellers) list items, buyers order them. Seller and buyer
// countries are two columns over one domain; some countries take several words ("United Kingdom").
// Some orders have no category and most have no rating; new shops have no tier yet.
import { createRng, intBetween, pickOne, WeightedPicker } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, MINUTE_MS, normal } from '../generate-support.js';
import { UNSEEN_NOW, type Cell, type TableData } from '../types.js';

const SEED = 7404;

// country, share of sellers, share of buyers
const COUNTRIES: ReadonlyArray<readonly [string, number, number]> = [
  ['Germany', 24, 22],
  ['France', 18, 20],
  ['Spain', 11, 12],
  ['Portugal', 6, 5],
  ['Italy', 12, 11],
  ['Netherlands', 8, 9],
  ['United Kingdom', 13, 12],
  ['United States', 8, 9],
];

// category, share, typical price (euro cents), fee rate
const CATEGORIES: ReadonlyArray<readonly [string | null, number, number, number]> = [
  ['Vintage Clothing', 20, 3500, 0.12],
  ['Home & Garden', 17, 5200, 0.1],
  ['Books', 15, 1400, 0.08],
  ['Electronics', 14, 16000, 0.07],
  ['Toys', 10, 2600, 0.11],
  ['Collectibles', 9, 8800, 0.14],
  [null, 15, 4000, 0.1],
];

const PAYMENT_METHODS = ['card', 'PayPal', 'bank transfer', 'Klarna'] as const;
const PAYMENT_SHARES = [52, 30, 7, 11];
const FIRST = ['Atelier', 'Kiez', 'Maison', 'Casa', 'Old', 'Little', 'Nordic', 'Rue', 'Retro', 'Blue', 'Green', 'Studio', 'Loja', 'Bottega', 'Tante'];
const SECOND = ['Vintage', 'Finds', 'Lumière', 'Trödel', 'Curios', 'Bazaar', 'Corner', 'Attic', 'Treasures', 'Market', 'Velha', 'Books', 'Deco', 'Emma', 'Loft', 'Goods', 'Shelf', 'Garden', 'Toys', 'Closet'];

export function marketTables(): TableData[] {
  const rng = createRng(SEED, 1);
  const sellerCountry = new WeightedPicker(COUNTRIES.map((c) => c[0]), COUNTRIES.map((c) => c[1]));
  const buyerCountry = new WeightedPicker(COUNTRIES.map((c) => c[0]), COUNTRIES.map((c) => c[2]));
  const categoryPicker = new WeightedPicker(CATEGORIES, CATEGORIES.map((c) => c[1]));
  const paymentPicker = new WeightedPicker(PAYMENT_METHODS, PAYMENT_SHARES);

  const names = new Set<string>();
  // id, shop name, country, tier, joined on
  const sellers: Array<[number, string, string, string | null, string]> = [];
  while (sellers.length < 260) {
    const name = `${pickOne(rng, FIRST)} ${pickOne(rng, SECOND)}`;
    if (names.has(name)) continue;
    names.add(name);
    const joined = dayMs('2021-01-01') + Math.floor(rng() * (dayMs('2025-05-01') - dayMs('2021-01-01')) / DAY_MS) * DAY_MS;
    // Tiers are set at the yearly review: shops that joined since are not rated yet.
    const tier = joined >= dayMs('2025-01-01') ? null : rng() < 0.15 ? 'Gold' : rng() < 0.45 ? 'Silver' : 'Bronze';
    sellers.push([sellers.length + 1, name, sellerCountry.pick(rng), tier, new Date(joined).toISOString().slice(0, 10)]);
  }
  const sellerWeights = sellers.map(() => Math.exp(normal(rng) * 1.1));
  const sellerPicker = new WeightedPicker(sellers, sellerWeights);

  const buyers: Array<[number, string, string]> = [];
  for (let id = 1; id <= 2400; id++) buyers.push([id, buyerCountry.pick(rng), pickOne(rng, ['app', 'web', 'referral'])]);
  const buyersIn = new Map(COUNTRIES.map(([country]) => [country, buyers.filter((b) => b[1] === country)]));

  const orders: Cell[][] = [];
  const listings: Cell[][] = [];
  const nowMs = UNSEEN_NOW.getTime();
  for (const day of days('2023-01-01', '2025-06-19')) {
    const start = dayMs(day);
    const growth = 1 + (start - dayMs('2023-01-01')) / (900 * DAY_MS) * 0.7;
    const december = day.slice(5, 7) === '12' ? 1.5 : 1;
    const perDay = Math.round(9 * growth * december * (0.7 + rng() * 0.6));
    for (let n = 0; n < perDay; n++) {
      const at = start + intBetween(rng, 0, 1439) * MINUTE_MS + intBetween(rng, 0, 59) * 1000;
      if (at >= nowMs) continue;
      const seller = sellerPicker.pick(rng);
      if (seller[4] > day) continue; // a shop sells once it has joined
      // Buyers mostly shop at home: a buyer from the seller's country two times in three.
      const buyer = pickOne(rng, rng() < 0.66 ? buyersIn.get(seller[2])! : buyers);
      const [category, , price, feeRate] = categoryPicker.pick(rng);
      const items = rng() < 0.8 ? 1 : intBetween(rng, 2, 4);
      const gmv = Math.round(price * items * Math.exp(normal(rng) * 0.5));
      const fate = rng();
      const status = fate < 0.05 ? 'cancelled' : fate < 0.11 ? 'refunded' : fate < 0.125 ? 'disputed' : 'completed';
      const rating = status === 'completed' && rng() < 0.6 ? Math.min(5, Math.max(1, Math.round(4.3 + normal(rng) * 0.9 - (seller[3] === null ? 0.4 : 0)))) : null;
      orders.push([orders.length + 1, at, seller[0], buyer[0], seller[2], buyer[1], category, paymentPicker.pick(rng), status, items, gmv, Math.round(gmv * feeRate), rating]);
    }
    const newListings = Math.round(perDay * 1.3);
    for (let n = 0; n < newListings; n++) {
      const at = start + intBetween(rng, 0, 1439) * MINUTE_MS;
      if (at >= nowMs) continue;
      const seller = sellerPicker.pick(rng);
      const [category, , price] = categoryPicker.pick(rng);
      const age = (nowMs - at) / DAY_MS;
      const status = age < 30 && rng() < 0.7 ? 'active' : rng() < 0.6 ? 'sold' : 'expired';
      listings.push([listings.length + 1, seller[0], at, category, Math.round(price * Math.exp(normal(rng) * 0.4)), status]);
    }
  }

  return [
    {
      name: 'sellers',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'shop_name', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'tier', type: 'VARCHAR' },
        { name: 'joined_on', type: 'DATE' },
      ],
      rows: sellers,
    },
    {
      name: 'buyers',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'signup_channel', type: 'VARCHAR' },
      ],
      rows: buyers,
    },
    {
      name: 'orders',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'ordered_at', type: 'TIMESTAMP' },
        { name: 'seller_id', type: 'INTEGER' },
        { name: 'buyer_id', type: 'INTEGER' },
        { name: 'seller_country', type: 'VARCHAR' },
        { name: 'buyer_country', type: 'VARCHAR' },
        { name: 'category', type: 'VARCHAR' },
        { name: 'payment_method', type: 'VARCHAR' },
        { name: 'status', type: 'VARCHAR' },
        { name: 'items', type: 'INTEGER' },
        { name: 'gmv_eur', type: 'DECIMAL(12,2)' },
        { name: 'fee_eur', type: 'DECIMAL(12,2)' },
        { name: 'rating', type: 'INTEGER' },
      ],
      rows: orders,
    },
    {
      name: 'listings',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'seller_id', type: 'INTEGER' },
        { name: 'listed_at', type: 'TIMESTAMP' },
        { name: 'category', type: 'VARCHAR' },
        { name: 'price_eur', type: 'DECIMAL(12,2)' },
        { name: 'status', type: 'VARCHAR' },
      ],
      rows: listings,
    },
  ];
}
