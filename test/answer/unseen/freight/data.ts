// A regional freight broker: carriers move shipments between US states. Origin and destination are
// two columns over one domain (state codes, several of which are English, Spanish or German words).
import { createRng, intBetween, WeightedPicker, type Rng } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, MINUTE_MS, normal, round } from '../generate-support.js';
import { UNSEEN_NOW, type Cell, type TableData } from '../types.js';

const SEED = 7101;
const FIRST_DAY = '2023-01-01';

// code, name, census region, latitude, longitude, share of the traffic
const STATES: ReadonlyArray<readonly [string, string, string, number, number, number]> = [
  ['CA', 'California', 'West', 36.8, -119.4, 10],
  ['TX', 'Texas', 'South', 31.0, -99.0, 9],
  ['IL', 'Illinois', 'Midwest', 40.0, -89.2, 7],
  ['NY', 'New York', 'Northeast', 42.9, -75.5, 7],
  ['FL', 'Florida', 'South', 28.6, -82.4, 6],
  ['GA', 'Georgia', 'South', 32.7, -83.4, 5],
  ['OH', 'Ohio', 'Midwest', 40.3, -82.8, 5],
  ['WA', 'Washington', 'West', 47.4, -120.5, 5],
  ['OR', 'Oregon', 'West', 43.9, -120.6, 4],
  ['IN', 'Indiana', 'Midwest', 39.9, -86.3, 4],
  ['MI', 'Michigan', 'Midwest', 44.3, -85.4, 4],
  ['CO', 'Colorado', 'West', 39.0, -105.5, 3],
  ['MA', 'Massachusetts', 'Northeast', 42.3, -71.8, 3],
  ['LA', 'Louisiana', 'South', 31.0, -92.0, 3],
  ['OK', 'Oklahoma', 'South', 35.6, -97.5, 2],
  ['NE', 'Nebraska', 'Midwest', 41.5, -99.8, 2],
  ['DE', 'Delaware', 'South', 39.0, -75.5, 2],
  ['ME', 'Maine', 'Northeast', 45.4, -69.2, 1.5],
  ['ID', 'Idaho', 'West', 44.4, -114.6, 1.5],
  ['HI', 'Hawaii', 'West', 20.8, -156.3, 0.8],
];

// id, name, mode, headquarters state, reliability (share on time), price factor
const CARRIERS: ReadonlyArray<readonly [number, string, string, string, number, number]> = [
  [1, 'Blue Ridge Freight', 'truck', 'GA', 0.9, 1.0],
  [2, 'Cascade Lines', 'rail', 'WA', 0.82, 0.75],
  [3, 'Prairie Express', 'truck', 'NE', 0.87, 0.95],
  [4, 'Gulf Coast Haulers', 'truck', 'TX', 0.8, 0.9],
  [5, 'Northern Star', 'air', 'MI', 0.94, 1.6],
  [6, 'Lone Star Logistics', 'intermodal', 'TX', 0.85, 0.85],
  [7, 'Pacific Air Cargo', 'air', 'CA', 0.92, 1.8],
];

// name, share, typical weight (kg)
const COMMODITIES: ReadonlyArray<readonly [string | null, number, number]> = [
  [null, 22, 260],
  ['Electronics', 14, 60],
  ['Frozen Food', 13, 420],
  ['Furniture', 12, 380],
  ['Auto Parts', 14, 180],
  ['Medical Supplies', 9, 40],
  ['Paper Goods', 16, 300],
];

// name, share, promised days (min, max), price factor
const SERVICE_LEVELS: ReadonlyArray<readonly [string, number, number, number, number]> = [
  ['Ground', 48, 2, 5, 1.0],
  ['Two-Day', 20, 2, 2, 1.4],
  ['Express', 15, 1, 1, 2.1],
  ['Same Day', 5, 0, 0, 3.0],
  ['Freight LTL', 12, 3, 7, 0.8],
];

function distanceKm(from: readonly [string, string, string, number, number, number], to: typeof from, rng: Rng): number {
  if (from[0] === to[0]) return round(40 + rng() * 380);
  const rad = Math.PI / 180;
  const dLat = (to[3] - from[3]) * rad;
  const dLon = (to[4] - from[4]) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(from[3] * rad) * Math.cos(to[3] * rad) * Math.sin(dLon / 2) ** 2;
  // Roads are longer than the great circle.
  return round(6371 * 2 * Math.asin(Math.sqrt(a)) * (1.15 + rng() * 0.2));
}

function shipments(): Cell[][] {
  const rng = createRng(SEED, 1);
  const statePicker = new WeightedPicker(STATES, STATES.map((s) => s[5]));
  const commodityPicker = new WeightedPicker(COMMODITIES, COMMODITIES.map((c) => c[1]));
  const levelPicker = new WeightedPicker(SERVICE_LEVELS, SERVICE_LEVELS.map((l) => l[1]));
  const rows: Cell[][] = [];
  const nowMs = UNSEEN_NOW.getTime();
  let id = 0;
  for (const day of days(FIRST_DAY, '2025-06-19')) {
    const start = dayMs(day);
    const growth = 1 + (start - dayMs(FIRST_DAY)) / (900 * DAY_MS) * 0.5;
    const weekday = new Date(start).getUTCDay();
    const perDay = Math.round((weekday === 0 || weekday === 6 ? 4 : 14) * growth * (0.8 + rng() * 0.4));
    for (let n = 0; n < perDay; n++) {
      const shippedMs = start + (6 * 60 + intBetween(rng, 0, 14 * 60)) * MINUTE_MS + intBetween(rng, 0, 59) * 1000;
      if (shippedMs >= nowMs) continue;
      const origin = statePicker.pick(rng);
      // A third of the traffic stays in its state; Hawaii is reached by air only.
      const destination = rng() < 0.3 ? origin : statePicker.pick(rng);
      const distance = distanceKm(origin, destination, rng);
      const air = origin[0] === 'HI' || destination[0] === 'HI';
      const carrier = air ? CARRIERS[rng() < 0.5 ? 4 : 6]! : CARRIERS[intBetween(rng, 0, CARRIERS.length - 1)]!;
      let level = levelPicker.pick(rng);
      if (level[0] === 'Same Day' && distance > 450) level = SERVICE_LEVELS[2]!;
      const commodity = commodityPicker.pick(rng);
      const weight = round(Math.max(0.5, commodity[2] * Math.exp(normal(rng) * 0.6)));
      const packages = Math.max(1, Math.round(weight / (20 + rng() * 40)));
      const promisedDays = intBetween(rng, level[2], level[3]);
      const promised = promisedDays === 0 ? 600 : promisedDays * 1440;
      const onTime = rng() < carrier[4];
      const transit = Math.round(onTime ? promised * (0.45 + rng() * 0.55) : promised * (1.02 + rng() * 0.9));
      const costCents = Math.round((45 + weight * 0.32 + distance * 0.55 * (0.6 + weight / 900)) * level[4] * carrier[5] * 100);
      const fate = rng();
      let status = fate < 0.012 ? 'lost' : fate < 0.06 ? 'returned' : 'delivered';
      if (status === 'delivered' && shippedMs + transit * MINUTE_MS > nowMs) status = 'in transit';
      const delivered = status === 'delivered';
      rows.push([
        ++id,
        shippedMs,
        delivered ? shippedMs + transit * MINUTE_MS : null,
        origin[0],
        destination[0],
        carrier[0],
        level[0],
        status,
        commodity[0],
        weight,
        distance,
        packages,
        delivered ? transit : null,
        promised,
        costCents,
      ]);
    }
  }
  return rows;
}

export function freightTables(): TableData[] {
  return [
    {
      name: 'states',
      primaryKey: 'code',
      columns: [
        { name: 'code', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'region', type: 'VARCHAR' },
      ],
      rows: STATES.map(([code, name, region]) => [code, name, region]),
    },
    {
      name: 'carriers',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'mode', type: 'VARCHAR' },
        { name: 'hq_state', type: 'VARCHAR' },
      ],
      rows: CARRIERS.map(([id, name, mode, hq]) => [id, name, mode, hq]),
    },
    {
      name: 'shipments',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'shipped_at', type: 'TIMESTAMP' },
        { name: 'delivered_at', type: 'TIMESTAMP' },
        { name: 'origin_state', type: 'VARCHAR' },
        { name: 'dest_state', type: 'VARCHAR' },
        { name: 'carrier_id', type: 'INTEGER' },
        { name: 'service_level', type: 'VARCHAR' },
        { name: 'status', type: 'VARCHAR' },
        { name: 'commodity', type: 'VARCHAR' },
        { name: 'weight_kg', type: 'DOUBLE' },
        { name: 'distance_km', type: 'DOUBLE' },
        { name: 'packages', type: 'INTEGER' },
        { name: 'transit_minutes', type: 'INTEGER' },
        { name: 'promised_minutes', type: 'INTEGER' },
        { name: 'cost_usd', type: 'DECIMAL(12,2)' },
      ],
      rows: shipments(),
    },
  ];
}
