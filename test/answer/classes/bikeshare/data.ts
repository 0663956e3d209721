// A city bike-share scheme: each trip starts at one docking station and ends at another (a quarter
// are round trips). One stations table stands behind both ends of a trip. Two stations opened during
// the period, riding grows year on year and peaks in summer, so periods compare with real changes.
// The bike type is missing where an old dock did not report it; casual riders have no member id.
import { createRng, intBetween, WeightedPicker, type Rng } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, MINUTE_MS, normal, round, yearFraction } from '../../unseen/generate-support.js';
import { UNSEEN_NOW, type Cell, type TableData } from '../../unseen/types.js';

const SEED = 8301;
const FIRST_DAY = '2023-01-01';

interface Station {
  readonly id: number;
  readonly name: string;
  readonly district: string;
  readonly docks: number;
  readonly opened: string;
  /** Position on the city map, km east and north of the centre. */
  readonly x: number;
  readonly y: number;
  /** Relative share of the trips starting or ending here. */
  readonly weight: number;
}

const STATIONS: readonly Station[] = [
  { id: 1, name: 'Central Station', district: 'Central', docks: 40, opened: '2019-05-01', x: 0, y: 0, weight: 14 },
  { id: 2, name: 'City Hall', district: 'Central', docks: 24, opened: '2019-05-01', x: 0.8, y: 0.4, weight: 9 },
  { id: 3, name: 'Harbour Front', district: 'Harbour', docks: 30, opened: '2019-05-01', x: 2.5, y: -1.2, weight: 10 },
  { id: 4, name: 'Ferry Terminal', district: 'Harbour', docks: 20, opened: '2020-04-15', x: 3.4, y: -1.8, weight: 6 },
  { id: 5, name: 'Museum Square', district: 'Old Town', docks: 22, opened: '2019-05-01', x: -1.1, y: 0.9, weight: 8 },
  { id: 6, name: 'Cathedral Steps', district: 'Old Town', docks: 16, opened: '2021-03-01', x: -1.6, y: 1.4, weight: 5 },
  { id: 7, name: 'Campus North', district: 'University', docks: 28, opened: '2019-09-01', x: -0.5, y: 3.6, weight: 9 },
  { id: 8, name: 'Science Park', district: 'University', docks: 18, opened: '2022-06-01', x: 0.7, y: 4.4, weight: 4 },
  { id: 9, name: 'Riverside Park', district: 'Riverside', docks: 20, opened: '2020-04-15', x: -3.0, y: -1.5, weight: 7 },
  { id: 10, name: 'Boat Club', district: 'Riverside', docks: 12, opened: '2023-05-01', x: -3.8, y: -2.6, weight: 3 },
  { id: 11, name: 'Hillcrest Road', district: 'Hillcrest', docks: 14, opened: '2021-03-01', x: 2.2, y: 3.1, weight: 3 },
  { id: 12, name: 'Stadium Gate', district: 'Hillcrest', docks: 18, opened: '2024-03-01', x: 3.5, y: 2.4, weight: 4 },
];

const ELECTRIC_BIKES = 50;
const CLASSIC_BIKES = 110;
const MEMBERS = 600;

function pickStation(rng: Rng, open: readonly Station[], picker: WeightedPicker<Station>): Station {
  // Draw until an open station comes up: weights stay those of the scheme as it is today.
  for (;;) {
    const station = picker.pick(rng);
    if (open.includes(station)) return station;
  }
}

function trips(): Cell[][] {
  const rng = createRng(SEED, 1);
  const picker = new WeightedPicker(STATIONS, STATIONS.map((s) => s.weight));
  const rows: Cell[][] = [];
  const nowMs = UNSEEN_NOW.getTime();
  let id = 0;
  for (const day of days(FIRST_DAY, '2025-06-19')) {
    const start = dayMs(day);
    const open = STATIONS.filter((s) => s.opened <= day);
    // Twice as many trips in July as in January; a third more each year.
    const summer = (1 - Math.cos(2 * Math.PI * (yearFraction(day) - 0.05))) / 2;
    const growth = 1 + ((start - dayMs(FIRST_DAY)) / (365 * DAY_MS)) * 0.33;
    const weekend = [0, 6].includes(new Date(start).getUTCDay());
    const perDay = Math.round((2.2 + 2.6 * summer) * growth * (weekend ? 1.3 : 1) * (0.7 + rng() * 0.6));
    for (let n = 0; n < perDay; n++) {
      const startedMs = start + (6 * 60 + intBetween(rng, 0, 16 * 60)) * MINUTE_MS + intBetween(rng, 0, 59) * 1000;
      if (startedMs >= nowMs) continue;
      const from = pickStation(rng, open, picker);
      const roundTrip = rng() < 0.25;
      const to = roundTrip ? from : pickStation(rng, open, picker);
      const electric = rng() < 0.22 + 0.12 * ((start - dayMs(FIRST_DAY)) / (900 * DAY_MS));
      const member = rng() < 0.6;
      const straight = Math.hypot(to.x - from.x, to.y - from.y);
      const distance = round(roundTrip ? 1.5 + rng() * 9 : straight * (1.25 + rng() * 0.35) + 0.2);
      const speed = (electric ? 17 : 12) * Math.exp(normal(rng) * 0.12);
      const minutes = Math.max(2, Math.round((distance / speed) * 60 + rng() * 6));
      // Casual riders pay to unlock and by the minute; members ride 45 minutes free, then pay.
      const perMinute = electric ? 0.3 : 0.15;
      const fareCents = member ? Math.max(0, minutes - 45) * 10 : Math.round((1 + minutes * perMinute) * 100);
      const bikeId = electric ? intBetween(rng, 1, ELECTRIC_BIKES) : intBetween(rng, ELECTRIC_BIKES + 1, ELECTRIC_BIKES + CLASSIC_BIKES);
      const reported = rng() >= (day < '2024-01-01' ? 0.09 : 0.02);
      const payment = member ? 'pass' : rng() < 0.7 ? 'app' : 'card';
      rows.push([
        ++id,
        startedMs,
        startedMs + minutes * MINUTE_MS,
        from.id,
        to.id,
        bikeId,
        reported ? (electric ? 'electric' : 'classic') : null,
        member ? 'member' : 'casual',
        member ? intBetween(rng, 1, MEMBERS) : null,
        payment,
        minutes,
        distance,
        fareCents,
      ]);
    }
  }
  return rows;
}

export function bikeshareTables(): TableData[] {
  return [
    {
      name: 'stations',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'district', type: 'VARCHAR' },
        { name: 'docks', type: 'INTEGER' },
        { name: 'opened_on', type: 'DATE' },
      ],
      rows: STATIONS.map((s) => [s.id, s.name, s.district, s.docks, s.opened]),
    },
    {
      name: 'trips',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'started_at', type: 'TIMESTAMP' },
        { name: 'ended_at', type: 'TIMESTAMP' },
        { name: 'start_station_id', type: 'INTEGER' },
        { name: 'end_station_id', type: 'INTEGER' },
        { name: 'bike_id', type: 'INTEGER' },
        { name: 'bike_type', type: 'VARCHAR' },
        { name: 'rider_type', type: 'VARCHAR' },
        { name: 'member_id', type: 'INTEGER' },
        { name: 'payment', type: 'VARCHAR' },
        { name: 'duration_minutes', type: 'INTEGER' },
        { name: 'distance_km', type: 'DOUBLE' },
        { name: 'fare', type: 'DECIMAL(12,2)' },
      ],
      rows: trips(),
    },
  ];
}
