// A hotel group with ten hotels in six European countries. A booking is dated by its check-in day;
// the guest's home country is a code into the countries table, while a hotel states its country by
// name: "Spain" is both where guests come from and where hotels stand. Cancelled bookings and
// no-shows bring no revenue and no room nights; the guest's country is unknown on some bookings.
import { createRng, intBetween, WeightedPicker } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, MINUTE_MS, normal, yearFraction } from '../../unseen/generate-support.js';
import { UNSEEN_NOW, type Cell, type TableData } from '../../unseen/types.js';

const SEED = 8402;
const FIRST_DAY = '2023-01-01';

// code, name, continent, share of the guests
const COUNTRIES: ReadonlyArray<readonly [string, string, string, number]> = [
  ['PT', 'Portugal', 'Europe', 8],
  ['ES', 'Spain', 'Europe', 11],
  ['FR', 'France', 'Europe', 10],
  ['IT', 'Italy', 'Europe', 6],
  ['DE', 'Germany', 'Europe', 13],
  ['GB', 'United Kingdom', 'Europe', 12],
  ['NL', 'Netherlands', 'Europe', 6],
  ['US', 'United States', 'North America', 12],
  ['CA', 'Canada', 'North America', 4],
  ['BR', 'Brazil', 'South America', 5],
  ['JP', 'Japan', 'Asia', 4],
];

// id, name, city, country, stars, rooms, base rate (USD a night), share of the bookings, opened
const HOTELS: ReadonlyArray<readonly [number, string, string, string, number, number, number, number, string]> = [
  [1, 'Stayline Lisbon Baixa', 'Lisbon', 'Portugal', 4, 120, 140, 12, '2018-04-01'],
  [2, 'Stayline Porto Ribeira', 'Porto', 'Portugal', 3, 80, 105, 8, '2019-06-01'],
  [3, 'Stayline Madrid Centro', 'Madrid', 'Spain', 4, 150, 150, 13, '2017-03-01'],
  [4, 'Stayline Barcelona Mar', 'Barcelona', 'Spain', 5, 110, 240, 10, '2020-05-01'],
  [5, 'Stayline Paris Opera', 'Paris', 'France', 4, 90, 210, 12, '2016-09-01'],
  [6, 'Stayline Nice Promenade', 'Nice', 'France', 3, 70, 130, 6, '2021-04-01'],
  [7, 'Stayline Rome Termini', 'Rome', 'Italy', 3, 100, 120, 10, '2019-02-01'],
  [8, 'Stayline Berlin Mitte', 'Berlin', 'Germany', 4, 140, 125, 11, '2018-10-01'],
  [9, 'Stayline Munich Isar', 'Munich', 'Germany', 4, 95, 145, 7, '2024-02-01'],
  [10, 'Stayline London Bankside', 'London', 'United Kingdom', 5, 130, 260, 11, '2017-11-01'],
];

// name, share, rate factor
const CHANNELS: ReadonlyArray<readonly [string, number, number]> = [
  ['direct', 30, 1.0],
  ['OTA', 40, 1.05],
  ['corporate', 18, 0.9],
  ['travel agent', 12, 0.95],
];
const ROOM_TYPES: ReadonlyArray<readonly [string, number, number]> = [
  ['standard', 62, 1.0],
  ['deluxe', 28, 1.35],
  ['suite', 10, 2.1],
];

function bookings(): Cell[][] {
  const rng = createRng(SEED, 1);
  const hotelPicker = new WeightedPicker(HOTELS, HOTELS.map((h) => h[7]));
  const countryPicker = new WeightedPicker(COUNTRIES, COUNTRIES.map((c) => c[3]));
  const channelPicker = new WeightedPicker(CHANNELS, CHANNELS.map((c) => c[1]));
  const roomPicker = new WeightedPicker(ROOM_TYPES, ROOM_TYPES.map((r) => r[1]));
  const rows: Cell[][] = [];
  const nowMs = UNSEEN_NOW.getTime();
  let id = 0;
  for (const day of days(FIRST_DAY, '2025-06-19')) {
    const start = dayMs(day);
    const summer = (1 - Math.cos(2 * Math.PI * (yearFraction(day) - 0.08))) / 2;
    const growth = 1 + ((start - dayMs(FIRST_DAY)) / (365 * DAY_MS)) * 0.18;
    const perDay = Math.round((2.6 + 2.4 * summer) * growth * (0.7 + rng() * 0.6));
    for (let n = 0; n < perDay; n++) {
      let hotel = hotelPicker.pick(rng);
      if (hotel[8] > day) hotel = HOTELS[7]!;
      // Guests of a hotel's own country come more often than their share says.
      const home = COUNTRIES.find((c) => c[1] === hotel[3]);
      const country = home && rng() < 0.2 ? home : countryPicker.pick(rng);
      const channel = country[0] === 'JP' && rng() < 0.5 ? CHANNELS[3]! : channelPicker.pick(rng);
      const room = roomPicker.pick(rng);
      const nights = Math.max(1, Math.min(14, Math.round(Math.exp(0.9 + normal(rng) * 0.55))));
      const guests = room[0] === 'suite' ? intBetween(rng, 2, 4) : intBetween(rng, 1, 2);
      const leadDays = Math.round(-Math.log(1 - rng()) * (channel[0] === 'corporate' ? 9 : 30));
      const bookedMs = start - leadDays * DAY_MS - intBetween(rng, 0, 23 * 60) * MINUTE_MS;
      const fate = rng();
      const status = fate < (channel[0] === 'OTA' ? 0.17 : 0.08) ? 'cancelled' : fate > 0.975 ? 'no-show' : 'stayed';
      const rate = hotel[6] * room[2] * channel[2] * (0.85 + 0.35 * summer) * Math.exp(normal(rng) * 0.08);
      const revenueCents = status === 'stayed' ? Math.round(rate * nights * 100) : 0;
      if (bookedMs >= nowMs) continue;
      rows.push([
        ++id,
        bookedMs,
        day,
        nights,
        hotel[0],
        rng() < 0.06 ? null : country[0],
        channel[0],
        room[0],
        status,
        guests,
        revenueCents,
      ]);
    }
  }
  return rows;
}

export function hotelTables(): TableData[] {
  return [
    {
      name: 'countries',
      primaryKey: 'code',
      columns: [
        { name: 'code', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'continent', type: 'VARCHAR' },
      ],
      rows: COUNTRIES.map(([code, name, continent]) => [code, name, continent]),
    },
    {
      name: 'hotels',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'city', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'stars', type: 'INTEGER' },
        { name: 'rooms', type: 'INTEGER' },
        { name: 'opened_on', type: 'DATE' },
      ],
      rows: HOTELS.map(([hotelId, name, city, country, stars, rooms, , , opened]) => [hotelId, name, city, country, stars, rooms, opened]),
    },
    {
      name: 'bookings',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'booked_at', type: 'TIMESTAMP' },
        { name: 'check_in', type: 'DATE' },
        { name: 'nights', type: 'INTEGER' },
        { name: 'hotel_id', type: 'INTEGER' },
        { name: 'guest_country', type: 'VARCHAR' },
        { name: 'channel', type: 'VARCHAR' },
        { name: 'room_type', type: 'VARCHAR' },
        { name: 'status', type: 'VARCHAR' },
        { name: 'guests', type: 'INTEGER' },
        { name: 'revenue', type: 'DECIMAL(12,2)' },
      ],
      rows: bookings(),
    },
  ];
}
