// Which rows a question without a period counts, end to end on the unseen domains' warehouses (offline
// planner, deployed models, now fixed at 2025-06-18 15:00 UTC): a flow (rainfall, orders, shipments)
// over the default window of the last 30 complete days, a stock (stations, seller accounts: things
// that exist) over all time, a snapshot (carriers, clubs) as of now; and with a named period, that
// period for flows and stocks alike. Every answer must be exact against SQL written by hand over the
// tables, and must say which rows it counted (`data.period`, the assumptions).
//
// Two domains are deployed with one reveal more than their evaluation models, as a data team would
// write it: the weather stations' reveal with the date they were installed, and the marketplace's
// seller accounts by the date they joined. Neither says `time_scope:`: that the stations and the
// sellers are things events happen to (observations, orders) is inferred from the models' joins.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelDir } from '../../src/demo-setup.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { UNSEEN_DOMAINS } from './unseen/domains.js';
import { runUnseenSets, type DomainRun } from './unseen/harness.js';
import { ask, rows, value } from './unseen/question-helpers.js';
import type { Expected, UnseenDomain } from './unseen/types.js';

/** What a question must come back with besides its numbers. */
interface Scope {
  readonly period: string;
  readonly assumption?: string;
}

interface Case {
  readonly question: string;
  readonly expect: Expected;
  readonly scope: Scope;
}

const ALL_TIME: Scope = { period: 'all_time', assumption: 'all_time_assumed' };
const DEFAULT_WINDOW: Scope = { period: 'last_30_days', assumption: 'period_assumed' };
const AS_OF_NOW: Scope = { period: 'as_of_now' };
const named = (period: string, assumption?: string): Scope => ({ period, ...(assumption ? { assumption } : {}) });

/** The last 30 complete days before 2025-06-18. */
const LAST_30 = (column: string, type: 'DATE' | 'TIMESTAMP') => `${column} >= ${type} '2025-05-19' AND ${column} < ${type} '2025-06-18'`;

const WEATHER: Case[] = [
  { question: 'how many stations are there', expect: value(`SELECT count(*) FROM weather.stations`), scope: ALL_TIME },
  { question: 'number of stations', expect: value(`SELECT count(*) FROM weather.stations`), scope: ALL_TIME },
  { question: 'average elevation', expect: value(`SELECT avg(elevation_m) FROM weather.stations`), scope: ALL_TIME },
  { question: 'stations by region', expect: rows(`SELECT region, count(*) FROM weather.stations GROUP BY 1`), scope: ALL_TIME },
  { question: 'how many stations right now', expect: value(`SELECT count(*) FROM weather.stations`), scope: AS_OF_NOW },
  {
    question: 'stations since 2010',
    expect: value(`SELECT count(*) FROM weather.stations WHERE installed_on >= DATE '2010-01-01' AND installed_on < DATE '2025-06-19'`),
    scope: named('since_2010', 'period_applied_to_stock'),
  },
  { question: 'how much rainfall', expect: value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE ${LAST_30('observed_on', 'DATE')}`), scope: DEFAULT_WINDOW },
  {
    question: 'rainfall in May 2025',
    expect: value(`SELECT sum(rainfall_mm) FROM weather.observations WHERE observed_on >= DATE '2025-05-01' AND observed_on < DATE '2025-06-01'`),
    scope: named('2025_05'),
  },
];

const MARKET: Case[] = [
  { question: 'How many seller accounts do we have?', expect: value(`SELECT count(*) FROM market.sellers`), scope: ALL_TIME },
  { question: 'number of seller accounts', expect: value(`SELECT count(*) FROM market.sellers`), scope: ALL_TIME },
  { question: 'seller accounts by seller tier', expect: rows(`SELECT tier, count(*) FROM market.sellers GROUP BY 1`), scope: ALL_TIME },
  {
    question: 'seller accounts in 2024',
    expect: value(`SELECT count(*) FROM market.sellers WHERE joined_on >= DATE '2024-01-01' AND joined_on < DATE '2025-01-01'`),
    scope: named('2024', 'period_applied_to_stock'),
  },
  { question: 'how many orders', expect: value(`SELECT count(*) FROM market.orders WHERE ${LAST_30('ordered_at', 'TIMESTAMP')}`), scope: DEFAULT_WINDOW },
  {
    question: 'what was GMV',
    expect: value(`SELECT sum(gmv_eur) FILTER (WHERE status <> 'cancelled') FROM market.orders WHERE ${LAST_30('ordered_at', 'TIMESTAMP')}`),
    scope: DEFAULT_WINDOW,
  },
];

const FREIGHT: Case[] = [
  { question: 'How many carriers do we have?', expect: value(`SELECT count(*) FROM freight.carriers`), scope: AS_OF_NOW },
  { question: 'how many shipments', expect: value(`SELECT count(*) FROM freight.shipments WHERE ${LAST_30('shipped_at', 'TIMESTAMP')}`), scope: DEFAULT_WINDOW },
  {
    question: 'number of shipments in 2024',
    expect: value(`SELECT count(*) FROM freight.shipments WHERE shipped_at >= TIMESTAMP '2024-01-01' AND shipped_at < TIMESTAMP '2025-01-01'`),
    scope: named('2024'),
  },
];

const LEAGUE: Case[] = [
  { question: 'how many teams are there', expect: value(`SELECT count(*) FROM league.teams`), scope: AS_OF_NOW },
  { question: 'number of matches', expect: value(`SELECT count(*) FROM league.matches WHERE ${LAST_30('kickoff_at', 'TIMESTAMP')}`), scope: DEFAULT_WINDOW },
  {
    question: 'goals in 2024',
    expect: value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2025-01-01'`),
    scope: named('2024'),
  },
];

/** An evaluation domain with its own questions, its model's files (file name → text) changed by `edit`. */
async function variant(name: string, cases: readonly Case[], edit: (files: Map<string, string>) => void, into: string): Promise<UnseenDomain> {
  const domain = UNSEEN_DOMAINS.find((d) => d.name === name)!;
  const files = new Map((await readModelDir(domain.modelDir)).map((file) => [path.basename(file.path), file.content]));
  edit(files);
  const modelDir = path.join(into, name);
  mkdirSync(modelDir);
  for (const [file, content] of files) writeFileSync(path.join(modelDir, file), content);
  return { ...domain, modelDir, questions: cases.map((c) => ask(c.question, 'en', ['simple'], c.expect)) };
}

function replaceOnce(files: Map<string, string>, file: string, find: string, replacement: string): void {
  const text = files.get(file)!;
  if (!text.includes(find)) throw new Error(`${file} has no ${JSON.stringify(find)}`);
  files.set(file, text.replace(find, replacement));
}

const CASES = new Map<string, readonly Case[]>([
  ['weather', WEATHER],
  ['market', MARKET],
  ['freight', FREIGHT],
  ['league', LEAGUE],
]);
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-time-scope-'));
let runs: DomainRun[];
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const domains = [
    await variant('weather', WEATHER, (files) => replaceOnce(files, 'reveals.cml', '  base: stations\n', '  base: stations\n  time: stations.installed_on\n'), scratch),
    await variant(
      'market',
      MARKET,
      (files) => {
        replaceOnce(files, 'orders.cml', '  dimension joined_on { type: date  label: "Joined on" }\n', '  dimension joined_on { type: date  label: "Joined on" }\n\n  measure seller_count { type: count  format: number }\n');
        files.set(
          'accounts.cml',
          [
            'reveal accounts {',
            '  domain: marketplace',
            '  label: "Seller accounts"',
            '  base: sellers',
            '  time: sellers.joined_on',
            '  metric seller_accounts { label: "Seller accounts"  unit: count  measure: sellers.seller_count }',
            '}',
            '',
          ].join('\n'),
        );
      },
      scratch,
    ),
    await variant('freight', FREIGHT, () => {}, scratch),
    await variant('league', LEAGUE, () => {}, scratch),
  ];
  const database = (await hasService('postgres')) ? await createTestDatabase() : undefined;
  drop = database?.drop;
  runs = await runUnseenSets({ domains, ...(database ? { databaseUrl: database.url } : {}) });
}, 120_000);
afterAll(async () => {
  await drop?.();
  rmSync(scratch, { recursive: true, force: true });
});

describe.each([...CASES.keys()])('time scope on the %s model', (name) => {
  it.each(CASES.get(name)!.map((c) => [c.question, c] as const))('%s', (_question, c) => {
    const outcome = runs.find((run) => run.domain.name === name)!.outcomes.find((o) => o.question.question === c.question)!;
    const shown = `${outcome.answer?.answer ?? outcome.error}\nSQL: ${outcome.sql.join('\n')}`;
    expect(outcome.verdict, shown).toBe('exact');
    expect(outcome.answer!.data.period, shown).toBe(c.scope.period);
    const codes = outcome.answer!.provenance.assumptions.map((a) => a.code).filter((code) => code !== 'no_rows');
    expect(codes, shown).toEqual(c.scope.assumption ? [c.scope.assumption] : []);
  });
});
