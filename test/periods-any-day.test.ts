// Calendar periods are answered over the right hours at any instant: asked through POST /api/v1/ask and
// watched by a signal, at each day of one week, a month's and a year's last half hour and both
// daylight-saving changes (test/helpers/instants.ts), in workspaces in UTC, Europe/Paris, St John's and
// Kiritimati; a signal's daily cron runs next at 09:00 in its zone. The warehouse holds one visit an hour,
// so a period's answer is its number of hours, which this test counts itself from each hour's date in the
// zone (Intl), without the service's calendar code.
import { mkdir } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { INSTANTS, ZONES } from './helpers/instants.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FIRST_HOUR = Date.UTC(2024, 11, 25);
const HOURS = (Date.UTC(2027, 0, 10) - FIRST_HOUR) / HOUR_MS;

const CML = `
node visits {
  label: "Visits"
  domain: web
  connection: web
  table: web.visits
  dimension id         { type: number  primary_key: true  hidden: true }
  dimension visited_at { type: timestamp }
  measure visit_count  { type: count }
}

reveal traffic {
  domain: web
  label: "Traffic"
  base: visits
  time: visits.visited_at
  metric visits { label: "Visits"  measure: visits.visit_count }
}
`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-periods-any-day-'));
let t: TestApp;
const spaces = new Map<string, { ws: SeededWorkspace; question: string; structured: string; signal: string }>();

/** The workspace's own DuckDB file: one visit at the start of every hour (UTC, as the warehouse keeps it). */
async function writeVisits(workspaceId: string): Promise<void> {
  const directory = t.services.connections.directoryOf(workspaceId);
  await mkdir(directory, { recursive: true });
  const instance = await DuckDBInstance.create(path.join(directory, 'traffic.duckdb'));
  try {
    const connection = await instance.connect();
    await connection.run('CREATE SCHEMA web');
    await connection.run(
      `CREATE TABLE web.visits AS SELECT CAST(row_number() OVER () AS INTEGER) AS id, range AS visited_at
       FROM range(TIMESTAMP '${new Date(FIRST_HOUR).toISOString().slice(0, 10)}', TIMESTAMP '2027-01-10', INTERVAL 1 HOUR)`,
    );
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  for (const zone of ZONES) {
    const ws = await seedWorkspace(t.services);
    await t.store.db.updateTable('workspaces').set({ timezone: zone }).where('id', '=', ws.id).execute();
    await writeVisits(ws.id);
    await t.services.connections.create(ws.id, { name: 'web', engine: 'duckdb', settings: { path: 'traffic.duckdb' } });
    const lum = ws.members.luminary;
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'web', [{ path: 'web.cml', content: CML }]);
    const question = (await createKey(t.services, ws, 'luminary', 'question', { rateLimit: 100_000 })).value;
    const structured = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'content:read', 'content:write'] })).value;
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/signals',
      headers: { authorization: `Bearer ${structured}` },
      payload: {
        name: 'Visits last week',
        watch: { node: 'visits', measure: 'visit_count', time_field: 'visited_at', period: 'last_week' },
        condition: 'greater_than',
        threshold: 0,
        schedule: { cron: '0 9 * * *' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    spaces.set(zone, { ws, question, structured, signal: created.json().signal.id });
  }
}, 120_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// The oracle: dates as YYYY-MM-DD strings, days counted in UTC arithmetic on them (a date has no zone).
const dateIn = (zone: string) => {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (at: Date) => {
    const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
    return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
  };
};
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const monthStart = (date: string, back = 0) => {
  const month = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 - back;
  return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
};

/** Each period's [start, end) around the zone's date `today`, as docs/answers.md describes them. */
function periods(today: string): Array<[phrase: string, token: string, start: string, end: string]> {
  const monday = plusDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  const quarterBack = (Number(today.slice(5, 7)) - 1) % 3;
  const year = Number(today.slice(0, 4));
  const tomorrow = plusDays(today, 1);
  return [
    ['today', 'today', today, tomorrow],
    ['yesterday', 'yesterday', plusDays(today, -1), today],
    ['this week', 'this_week', monday, tomorrow],
    ['last week', 'last_week', plusDays(monday, -7), monday],
    ['in the last 7 days', 'last_7_days', plusDays(today, -7), today],
    ['this month', 'this_month', monthStart(today), tomorrow],
    ['last month', 'last_month', monthStart(today, 1), monthStart(today)],
    ['this quarter', 'this_quarter', monthStart(today, quarterBack), tomorrow],
    ['last quarter', 'last_quarter', monthStart(today, quarterBack + 3), monthStart(today, quarterBack)],
    ['this year', 'this_year', `${year}-01-01`, tomorrow],
    ['last year', 'last_year', `${year - 1}-01-01`, `${year}-01-01`],
  ];
}

const hoursByDate = new Map<string, Map<string, number>>();

/** How many of the warehouse's hours fall on the zone's dates [start, end). */
function hoursBetween(zone: string, start: string, end: string): number {
  let byDate = hoursByDate.get(zone);
  if (!byDate) {
    const local = dateIn(zone);
    byDate = new Map();
    for (let i = 0; i < HOURS; i++) {
      const { date } = local(new Date(FIRST_HOUR + i * HOUR_MS));
      byDate.set(date, (byDate.get(date) ?? 0) + 1);
    }
    hoursByDate.set(zone, byDate);
  }
  let count = 0;
  for (const [date, hours] of byDate) if (date >= start && date < end) count += hours;
  return count;
}

/** The first 09:00 in the zone strictly after `now` (zones here are on whole or half hours). */
function nextNine(zone: string, now: Date): Date {
  const local = dateIn(zone);
  let at = Math.floor(now.getTime() / (HOUR_MS / 2)) * (HOUR_MS / 2) + HOUR_MS / 2;
  while (local(new Date(at)).time !== '09:00') at += HOUR_MS / 2;
  return new Date(at);
}

describe.each(INSTANTS.map((i) => [i.label, i.at.toISOString(), i.at] as const))('at %s (%s)', (_label, _iso, at) => {
  it.each(ZONES)('answers each calendar period over its hours in %s', async (zone) => {
    t.clock.set(at);
    const { question } = spaces.get(zone)!;
    const today = dateIn(zone)(at).date;
    for (const [phrase, token, start, end] of periods(today)) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${question}` }, payload: { question: `visits ${phrase}` } });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.provenance, phrase).toMatchObject({ reveal_backed: true, confidence: 'high' });
      expect(body.data, `${phrase}: ${start} to ${end}`).toMatchObject({ metric: 'visits', period: token, value: hoursBetween(zone, start, end) });
    }
  });

  it.each(ZONES)("a signal's period and next daily run, in %s", async (zone) => {
    t.clock.set(at);
    const { structured, signal } = spaces.get(zone)!;
    const call = (method: 'POST' | 'PATCH', url: string, payload?: object) => t.app.inject({ method, url: `/v1/signals/${signal}${url}`, headers: { authorization: `Bearer ${structured}` }, ...(payload ? { payload } : {}) });
    // Saving the schedule again places its next run from now.
    const saved = await call('PATCH', '', { schedule: { cron: '0 9 * * *' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().signal.next_run_at).toBe(nextNine(zone, at).toISOString());
    const [, , start, end] = periods(dateIn(zone)(at).date).find(([, token]) => token === 'last_week')!;
    const evaluated = await call('POST', '/evaluate');
    expect(evaluated.statusCode, evaluated.body).toBe(200);
    expect(evaluated.json().value).toBe(hoursBetween(zone, start, end));
  });
});
