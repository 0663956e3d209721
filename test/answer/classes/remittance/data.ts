// A money-transfer service: customers in five countries send money home to eight others. Each
// transfer has a sending and a receiving country, both codes into one countries table; Spain and the
// United States both send and receive, so a country's role is in the question's verb. Amounts and
// fees are in US dollars; the purpose is declared on some transfers only.
import { createRng, intBetween, WeightedPicker } from '../../../../src/core/demo/prng.js';
import { DAY_MS, dayMs, days, MINUTE_MS, normal } from '../../unseen/generate-support.js';
import { UNSEEN_NOW, type Cell, type TableData } from '../../unseen/types.js';

const SEED = 8503;
const FIRST_DAY = '2023-01-01';

const COUNTRIES: ReadonlyArray<readonly [string, string, string]> = [
  ['US', 'United States', 'North America'],
  ['ES', 'Spain', 'Europe'],
  ['GB', 'United Kingdom', 'Europe'],
  ['FR', 'France', 'Europe'],
  ['DE', 'Germany', 'Europe'],
  ['MX', 'Mexico', 'Latin America'],
  ['CO', 'Colombia', 'Latin America'],
  ['PH', 'Philippines', 'Asia'],
  ['IN', 'India', 'Asia'],
  ['MA', 'Morocco', 'Africa'],
  ['NG', 'Nigeria', 'Africa'],
  ['SN', 'Senegal', 'Africa'],
];

// from, to, share of the transfers, typical amount (USD)
const CORRIDORS: ReadonlyArray<readonly [string, string, number, number]> = [
  ['US', 'MX', 20, 380],
  ['US', 'PH', 8, 420],
  ['US', 'IN', 7, 650],
  ['US', 'CO', 5, 330],
  ['US', 'NG', 3, 500],
  ['ES', 'MA', 8, 260],
  ['ES', 'CO', 7, 300],
  ['ES', 'SN', 3, 240],
  ['ES', 'MX', 1, 350],
  ['FR', 'MA', 7, 280],
  ['FR', 'SN', 5, 250],
  ['FR', 'ES', 2, 400],
  ['GB', 'IN', 6, 600],
  ['GB', 'NG', 5, 450],
  ['GB', 'PH', 3, 400],
  ['GB', 'ES', 2, 500],
  ['DE', 'MA', 2, 300],
  ['DE', 'NG', 1, 420],
  ['MX', 'US', 1, 700],
];

// name, share, fee: fixed part and percent of the amount
const CHANNELS: ReadonlyArray<readonly [string, number, number, number]> = [
  ['app', 55, 1.99, 0.6],
  ['web', 25, 2.99, 0.8],
  ['agent', 20, 4.99, 1.5],
];
const PAYOUTS: ReadonlyArray<readonly [string, number]> = [
  ['bank deposit', 50],
  ['cash pickup', 30],
  ['mobile wallet', 20],
];
const PURPOSES: ReadonlyArray<readonly [string | null, number]> = [
  [null, 40],
  ['family support', 35],
  ['education', 10],
  ['medical', 7],
  ['savings', 8],
];
const CUSTOMERS = 1400;

function transfers(): Cell[][] {
  const rng = createRng(SEED, 1);
  const corridorPicker = new WeightedPicker(CORRIDORS, CORRIDORS.map((c) => c[2]));
  const channelPicker = new WeightedPicker(CHANNELS, CHANNELS.map((c) => c[1]));
  const payoutPicker = new WeightedPicker(PAYOUTS, PAYOUTS.map((p) => p[1]));
  const purposePicker = new WeightedPicker(PURPOSES, PURPOSES.map((p) => p[1]));
  const rows: Cell[][] = [];
  const nowMs = UNSEEN_NOW.getTime();
  let id = 0;
  for (const day of days(FIRST_DAY, '2025-06-19')) {
    const start = dayMs(day);
    const date = new Date(start);
    // More around pay day and in December; the service grows a quarter a year.
    const payDay = date.getUTCDate() >= 25 || date.getUTCDate() <= 2 ? 1.5 : 1;
    const december = date.getUTCMonth() === 11 ? 1.4 : 1;
    const growth = 1 + ((start - dayMs(FIRST_DAY)) / (365 * DAY_MS)) * 0.25;
    const perDay = Math.round(3.4 * payDay * december * growth * (0.6 + rng() * 0.8));
    for (let n = 0; n < perDay; n++) {
      const sentMs = start + intBetween(rng, 0, 24 * 60 - 1) * MINUTE_MS + intBetween(rng, 0, 59) * 1000;
      if (sentMs >= nowMs) continue;
      const corridor = corridorPicker.pick(rng);
      // The app takes over from agents as time goes by.
      let channel = channelPicker.pick(rng);
      if (channel[0] === 'agent' && rng() < ((start - dayMs(FIRST_DAY)) / (900 * DAY_MS)) * 0.5) channel = CHANNELS[0]!;
      const amount = Math.max(20, Math.round(corridor[3] * Math.exp(normal(rng) * 0.5)));
      const feeCents = Math.round((channel[2] + (amount * channel[3]) / 100) * 100);
      const fate = rng();
      const status = fate < 0.04 ? 'cancelled' : fate < 0.065 ? 'refunded' : 'paid out';
      rows.push([
        ++id,
        sentMs,
        corridor[0],
        corridor[1],
        intBetween(rng, 1, CUSTOMERS),
        amount * 100,
        status === 'cancelled' ? 0 : feeCents,
        channel[0],
        payoutPicker.pick(rng)[0],
        status,
        purposePicker.pick(rng)[0],
      ]);
    }
  }
  return rows;
}

export function remittanceTables(): TableData[] {
  return [
    {
      name: 'countries',
      primaryKey: 'code',
      columns: [
        { name: 'code', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'region', type: 'VARCHAR' },
      ],
      rows: COUNTRIES.map(([code, name, region]) => [code, name, region]),
    },
    {
      name: 'transfers',
      primaryKey: 'id',
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'sent_at', type: 'TIMESTAMP' },
        { name: 'send_country', type: 'VARCHAR' },
        { name: 'receive_country', type: 'VARCHAR' },
        { name: 'customer_id', type: 'INTEGER' },
        { name: 'amount', type: 'DECIMAL(12,2)' },
        { name: 'fee', type: 'DECIMAL(12,2)' },
        { name: 'channel', type: 'VARCHAR' },
        { name: 'payout_method', type: 'VARCHAR' },
        { name: 'status', type: 'VARCHAR' },
        { name: 'purpose', type: 'VARCHAR' },
      ],
      rows: transfers(),
    },
  ];
}
