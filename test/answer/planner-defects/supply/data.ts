// Deliveries of a food supplier to the stores of four retail chains, one of them "Target"; stores in
// six states held as codes, products from five countries held by name.
import { createRng } from '../../../../src/core/demo/prng.js';
import { days } from '../../unseen/generate-support.js';
import type { Cell, TableData } from '../../unseen/types.js';

const SEED = 6021;

const RETAILERS = ['Target', 'Kroger', 'Meijer', 'Publix'] as const;
const STATES = ['CA', 'TX', 'NY', 'FL', 'WA', 'GA'] as const;
const ORIGINS = ['United States', 'Canada', 'Mexico', 'Italy', 'Japan'] as const;
const LINES = ['Snacks', 'Frozen', 'Beverages'] as const;

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

export function supplyTables(): TableData[] {
  const rng = createRng(SEED, 1);
  const rows: Cell[][] = [];
  for (const day of days('2024-01-01', '2025-06-18')) {
    const count = 2 + Math.floor(rng() * 4);
    for (let k = 0; k < count; k++) {
      const cases = 20 + Math.floor(rng() * 180);
      const target = cases + Math.floor(rng() * 60) - 30;
      // Invoices in cents: DECIMAL(12,2) cells are integer cents.
      const invoiceCents = cases * (1800 + Math.floor(rng() * 900));
      rows.push([rows.length + 1, day, pick(rng, RETAILERS), pick(rng, STATES), pick(rng, ORIGINS), pick(rng, LINES), cases, target, invoiceCents, rng() < 0.12 ? 1 : 0]);
    }
  }
  return [
    {
      name: 'deliveries',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'delivered_on', type: 'DATE' },
        { name: 'retailer', type: 'VARCHAR' },
        { name: 'store_state', type: 'VARCHAR' },
        { name: 'origin', type: 'VARCHAR' },
        { name: 'product_line', type: 'VARCHAR' },
        { name: 'cases_n', type: 'INTEGER' },
        { name: 'target_n', type: 'INTEGER' },
        { name: 'invoice', type: 'DECIMAL(12,2)' },
        { name: 'late', type: 'INTEGER' },
      ],
      rows,
    },
  ];
}
