// Meter reads in seven cities, two of which are everyday words ("Reading", "Orange"); one city lies
// outside the US (no state). Every value of the sky and the region is a noun whose adjective people
// use instead ("sunny", "hazy", "northern").
import { createRng } from '../../../../src/core/demo/prng.js';
import { days, round } from '../../unseen/generate-support.js';
import type { Cell, TableData } from '../../unseen/types.js';

const SEED = 5150;

const CITIES = [
  { city: 'Reading', state: 'PA', country: 'United States', region: 'East' },
  { city: 'Orange', state: 'CA', country: 'United States', region: 'West' },
  { city: 'Austin', state: 'TX', country: 'United States', region: 'South' },
  { city: 'Salem', state: 'OR', country: 'United States', region: 'West' },
  { city: 'Buffalo', state: 'NY', country: 'United States', region: 'North' },
  { city: 'Windsor', state: null, country: 'Canada', region: 'North' },
] as const;
const RETAILERS = ['Heat', 'Spark Power', 'Grid One'] as const;
const SKIES = ['sun', 'rain', 'snow', 'haze', 'storm'] as const;

export function gridTables(): TableData[] {
  const rng = createRng(SEED, 1);
  const rows: Cell[][] = [];
  for (const day of days('2024-01-01', '2025-06-18')) {
    for (const place of CITIES) {
      // Most cities are read every other day or so; reads of one day share the sky of that city.
      if (rng() < 0.45) continue;
      const sky = SKIES[Math.floor(rng() * SKIES.length)]!;
      const reads = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < reads; k++) {
        const retailer = RETAILERS[Math.floor(rng() * RETAILERS.length)]!;
        rows.push([rows.length + 1, day, place.city, place.state, place.country, retailer, sky, place.region, round(80 + rng() * 900, 2), rng() < 0.15 ? 1 : 0]);
      }
    }
  }
  return [
    {
      name: 'meter_reads',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'read_on', type: 'DATE' },
        { name: 'city', type: 'VARCHAR' },
        { name: 'state', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'retailer', type: 'VARCHAR' },
        { name: 'sky', type: 'VARCHAR' },
        { name: 'region', type: 'VARCHAR' },
        { name: 'kwh', type: 'DOUBLE' },
        { name: 'estimated', type: 'INTEGER' },
      ],
      rows,
    },
  ];
}
