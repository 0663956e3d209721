// A ten-club league over two seasons, with a cup. Clubs are known by short codes, several of which
// are words in one of the five languages (UN, DIE, THE, AND, WAS, POR, DER, LA); each match has a home
// and an away club, two columns over one domain. The referee is not recorded for some matches, and
// attendance is missing for games played behind closed doors.
import { createRng, intBetween, pickOne, type Rng } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, MINUTE_MS, poisson } from '../generate-support.js';
import type { Cell, TableData } from '../types.js';

const SEED = 7303;

// code, name, city, conference, stadium capacity, founded, strength
const TEAMS: ReadonlyArray<readonly [string, string, string, string, number, number, number]> = [
  ['LA', 'Los Angeles Comets', 'Los Angeles', 'South', 27000, 1994, 1.25],
  ['UN', 'Union Nord', 'Hamburg', 'North', 22000, 1921, 1.15],
  ['DIE', 'Dietzenbach Kickers', 'Dietzenbach', 'North', 9000, 1948, 0.85],
  ['THE', 'Thetford Athletic', 'Thetford', 'North', 7500, 1889, 0.8],
  ['WAS', 'Washington Wolves', 'Washington', 'South', 20000, 1996, 1.1],
  ['AND', 'Andover United', 'Andover', 'North', 6000, 1902, 0.75],
  ['POR', 'Portsmouth Mariners', 'Portsmouth', 'North', 18500, 1898, 1.0],
  ['DER', 'Derby Forge', 'Derby', 'North', 15000, 1884, 0.95],
  ['NYH', 'New York Harbor', 'New York', 'South', 25000, 2008, 1.2],
  ['SEA', 'Seattle Rain', 'Seattle', 'South', 24000, 2009, 1.05],
];

const REFEREES = ['Anna Keller', 'Marco Rossi', 'João Silva', 'Pierre Dubois', 'Sarah O’Neill'];

/** A double round robin, twice: every club hosts every other club twice a season. */
function roundRobin(): Array<Array<[number, number]>> {
  const n = TEAMS.length;
  const order = [...Array(n).keys()];
  const rounds: Array<Array<[number, number]>> = [];
  for (let r = 0; r < n - 1; r++) {
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < n / 2; i++) {
      const a = order[i]!;
      const b = order[n - 1 - i]!;
      pairs.push(r % 2 === 0 ? [a, b] : [b, a]);
    }
    rounds.push(pairs);
    order.splice(1, 0, order.pop()!);
  }
  const reversed = rounds.map((pairs) => pairs.map(([a, b]) => [b, a] as [number, number]));
  return [...rounds, ...reversed, ...rounds, ...reversed];
}

function match(rng: Rng, id: number, season: string, competition: string, kickoffMs: number, home: number, away: number, closedDoors: boolean): Cell[] {
  const h = TEAMS[home]!;
  const a = TEAMS[away]!;
  const homeGoals = poisson(rng, 1.45 * h[6] / a[6]);
  const awayGoals = poisson(rng, 1.1 * a[6] / h[6]);
  const fill = competition === 'Cup' ? 0.55 + rng() * 0.4 : 0.68 + rng() * 0.32;
  return [
    id,
    season,
    competition,
    kickoffMs,
    h[0],
    a[0],
    homeGoals,
    awayGoals,
    closedDoors ? null : Math.round(h[4] * fill),
    poisson(rng, 3.2),
    rng() < 0.3 ? null : pickOne(rng, REFEREES),
  ];
}

function matches(): Cell[][] {
  const rng = createRng(SEED, 1);
  const rows: Cell[][] = [];
  const seasons: Array<[string, string]> = [
    ['2023/24', '2023-08-12'],
    ['2024/25', '2024-08-10'],
  ];
  for (const [season, opening] of seasons) {
    const rounds = roundRobin();
    // Saturdays from the opening day, with a winter break of three weeks after round 18.
    rounds.forEach((pairs, r) => {
      const saturday = dayMs(opening) + (r * 7 + (r >= 18 ? 21 : 0)) * DAY_MS;
      pairs.forEach(([home, away], slot) => {
        const kickoff = saturday + (slot < 3 ? 0 : DAY_MS) + ((13 + slot * 2) * 60 + (slot % 2) * 30) * MINUTE_MS;
        rows.push(match(rng, rows.length + 1, season, 'League', kickoff, home, away, rng() < 0.012));
      });
    });
    // The cup: sixteen Wednesday ties between random clubs.
    for (let tie = 0; tie < 16; tie++) {
      const wednesday = dayMs(opening) + (4 + tie * 2 + (tie >= 8 ? 3 : 0)) * 7 * DAY_MS + 4 * DAY_MS;
      const home = intBetween(rng, 0, TEAMS.length - 1);
      let away = intBetween(rng, 0, TEAMS.length - 2);
      if (away >= home) away++;
      rows.push(match(rng, rows.length + 1, season, 'Cup', wednesday + 19 * 60 * MINUTE_MS + 45 * MINUTE_MS, home, away, false));
    }
  }
  return rows.sort((x, y) => (x[3] as number) - (y[3] as number)).map((row, i) => [i + 1, ...row.slice(1)]);
}

export function leagueTables(): TableData[] {
  return [
    {
      name: 'teams',
      primaryKey: 'code',
      columns: [
        { name: 'code', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'city', type: 'VARCHAR' },
        { name: 'conference', type: 'VARCHAR' },
        { name: 'stadium_capacity', type: 'INTEGER' },
        { name: 'founded', type: 'INTEGER' },
      ],
      rows: TEAMS.map(([code, name, city, conference, capacity, founded]) => [code, name, city, conference, capacity, founded]),
    },
    {
      name: 'matches',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'season', type: 'VARCHAR' },
        { name: 'competition', type: 'VARCHAR' },
        { name: 'kickoff_at', type: 'TIMESTAMP' },
        { name: 'home_team', type: 'VARCHAR' },
        { name: 'away_team', type: 'VARCHAR' },
        { name: 'home_goals', type: 'INTEGER' },
        { name: 'away_goals', type: 'INTEGER' },
        { name: 'attendance', type: 'INTEGER' },
        { name: 'yellow_cards', type: 'INTEGER' },
        { name: 'referee', type: 'VARCHAR' },
      ],
      rows: matches(),
    },
  ];
}
