// A network of weather stations reporting one observation a day. Station names include words that
// are stop words elsewhere ("The Dalles") and values of several words in mixed case ("New York
// Central Park"); the operator is unknown for some stations and the condition missing on some days.
import { createRng, type Rng } from '../../../../src/core/demo/prng.js';
import { days, normal, round, yearFraction } from '../generate-support.js';
import type { Cell, TableData } from '../types.js';

const SEED = 7202;

interface Station {
  readonly id: number;
  readonly name: string;
  readonly region: string;
  readonly state: string;
  readonly elevation: number;
  readonly status: string;
  readonly operator: string | null;
  readonly installed: string;
  /** Mean annual temperature and half the summer–winter swing, °C. */
  readonly meanC: number;
  readonly swingC: number;
  /** Chance of precipitation on a winter and on a summer day; mean amount on a wet day, mm. */
  readonly wetWinter: number;
  readonly wetSummer: number;
  readonly wetMm: number;
  /** Last day it reported, when it went offline. */
  readonly lastDay?: string;
}

const STATIONS: readonly Station[] = [
  { id: 1, name: 'Portland Airport', region: 'Pacific Northwest', state: 'OR', elevation: 9, status: 'active', operator: 'NOAA', installed: '1998-05-01', meanC: 12.5, swingC: 8, wetWinter: 0.6, wetSummer: 0.12, wetMm: 7 },
  { id: 2, name: 'Seattle Harbor', region: 'Pacific Northwest', state: 'WA', elevation: 5, status: 'active', operator: 'NOAA', installed: '2001-03-15', meanC: 11.8, swingC: 7.5, wetWinter: 0.65, wetSummer: 0.15, wetMm: 6.5 },
  { id: 3, name: 'The Dalles', region: 'Pacific Northwest', state: 'OR', elevation: 30, status: 'active', operator: 'County', installed: '2010-09-01', meanC: 12.9, swingC: 10.5, wetWinter: 0.3, wetSummer: 0.05, wetMm: 4 },
  { id: 4, name: 'Hood River', region: 'Pacific Northwest', state: 'OR', elevation: 47, status: 'maintenance', operator: null, installed: '2015-06-20', meanC: 11.2, swingC: 10, wetWinter: 0.45, wetSummer: 0.08, wetMm: 6 },
  { id: 5, name: 'Crater Lake', region: 'Pacific Northwest', state: 'OR', elevation: 1883, status: 'active', operator: 'National Park Service', installed: '1990-07-01', meanC: 3.5, swingC: 9, wetWinter: 0.55, wetSummer: 0.1, wetMm: 9 },
  { id: 6, name: 'Boulder', region: 'Rocky Mountains', state: 'CO', elevation: 1655, status: 'active', operator: 'NOAA', installed: '1995-01-10', meanC: 11, swingC: 11.5, wetWinter: 0.18, wetSummer: 0.3, wetMm: 5 },
  { id: 7, name: 'Aspen Ridge', region: 'Rocky Mountains', state: 'CO', elevation: 2405, status: 'offline', operator: null, installed: '2012-11-05', meanC: 3, swingC: 11, wetWinter: 0.4, wetSummer: 0.35, wetMm: 5.5, lastDay: '2024-09-30' },
  { id: 8, name: 'New York Central Park', region: 'Northeast', state: 'NY', elevation: 40, status: 'active', operator: 'NOAA', installed: '1985-04-01', meanC: 13.2, swingC: 12.5, wetWinter: 0.33, wetSummer: 0.32, wetMm: 9.5 },
  { id: 9, name: 'Burlington', region: 'Northeast', state: 'VT', elevation: 100, status: 'active', operator: 'County', installed: '2004-08-12', meanC: 7.9, swingC: 15, wetWinter: 0.4, wetSummer: 0.35, wetMm: 7 },
  { id: 10, name: 'Death Valley', region: 'Desert Southwest', state: 'CA', elevation: -59, status: 'active', operator: 'National Park Service', installed: '1993-02-02', meanC: 25.5, swingC: 14, wetWinter: 0.05, wetSummer: 0.02, wetMm: 4 },
  { id: 11, name: 'Phoenix Sky Harbor', region: 'Desert Southwest', state: 'AZ', elevation: 331, status: 'active', operator: 'NOAA', installed: '1999-10-30', meanC: 24.5, swingC: 11, wetWinter: 0.1, wetSummer: 0.08, wetMm: 6 },
  { id: 12, name: 'Nome', region: 'Alaska', state: 'AK', elevation: 7, status: 'maintenance', operator: 'NOAA', installed: '2003-07-19', meanC: -2.5, swingC: 12, wetWinter: 0.4, wetSummer: 0.45, wetMm: 3.5 },
];

function observation(rng: Rng, station: Station, day: string, id: number): Cell[] {
  // Coldest around January 20th, warmest in late July.
  const season = -Math.cos(2 * Math.PI * (yearFraction(day) - 0.05));
  const mean = round(station.meanC + station.swingC * season + normal(rng) * 3);
  const range = 6 + rng() * 8;
  const summer = (season + 1) / 2;
  const wet = rng() < station.wetWinter + (station.wetSummer - station.wetWinter) * summer;
  const water = wet ? round(Math.max(0.6, station.wetMm * -Math.log(1 - rng()))) : rng() < 0.15 ? round(rng() * 0.4) : 0;
  const snow = wet && mean <= 0.5;
  let condition: string | null;
  if (snow) condition = 'snow';
  else if (wet) condition = summer > 0.6 && rng() < 0.18 ? 'thunderstorm' : 'rain';
  else {
    const sky = rng();
    condition = sky < 0.05 ? 'fog' : sky < 0.45 ? 'cloudy' : 'clear';
  }
  // Sensors drop out: the condition is then unknown, and sometimes the gauge too.
  if (rng() < 0.03) condition = null;
  const gaugeMissing = rng() < 0.01;
  return [
    id,
    station.id,
    day,
    round(mean - range / 2),
    round(mean + range / 2),
    mean,
    gaugeMissing ? null : snow ? 0 : water,
    snow ? round(water * 10) : 0,
    round(Math.min(100, Math.max(8, 62 + (wet ? 22 : 0) - (station.meanC > 20 ? 35 : 0) + normal(rng) * 10))),
    round(Math.max(3, 14 + (wet ? 12 : 0) + normal(rng) * 8 + (condition === 'thunderstorm' ? 35 : 0))),
    condition,
  ];
}

export function weatherTables(): TableData[] {
  const rng = createRng(SEED, 1);
  const observations: Cell[][] = [];
  for (const day of days('2023-01-01', '2025-06-18')) {
    for (const station of STATIONS) {
      if (station.lastDay && day > station.lastDay) continue;
      observations.push(observation(rng, station, day, observations.length + 1));
    }
  }
  return [
    {
      name: 'stations',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'region', type: 'VARCHAR' },
        { name: 'state', type: 'VARCHAR' },
        { name: 'elevation_m', type: 'INTEGER' },
        { name: 'status', type: 'VARCHAR' },
        { name: 'operator', type: 'VARCHAR' },
        { name: 'installed_on', type: 'DATE' },
      ],
      rows: STATIONS.map((s) => [s.id, s.name, s.region, s.state, s.elevation, s.status, s.operator, s.installed]),
    },
    {
      name: 'observations',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'station_id', type: 'INTEGER' },
        { name: 'observed_on', type: 'DATE' },
        { name: 'temp_min_c', type: 'DOUBLE' },
        { name: 'temp_max_c', type: 'DOUBLE' },
        { name: 'temp_mean_c', type: 'DOUBLE' },
        { name: 'rainfall_mm', type: 'DOUBLE' },
        { name: 'snowfall_mm', type: 'DOUBLE' },
        { name: 'humidity_pct', type: 'DOUBLE' },
        { name: 'wind_max_kmh', type: 'DOUBLE' },
        { name: 'condition', type: 'VARCHAR' },
      ],
      rows: observations,
    },
  ];
}
