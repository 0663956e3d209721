// POST /api/v1/ask on a model written for it (test/helpers/ops-model.ts), not the demo: provenance that
// never dresses a refusal or an empty result as a governed number, assumptions that say what the
// answer took for granted, top-N rankings without the NULL group, units in prose, and snapshot
// metrics that no period applies to. The rankings are also checked on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { viewerQuestionKey } from './helpers/ops-ask.js';
import { deployOpsModel, loadOpsDuckDb, loadOpsPostgres, OPS_FIGURES } from './helpers/ops-model.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const withPostgres = await hasService('postgres');
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-answers-'));
let t: TestApp;
let ws: SeededWorkspace;
let key: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  await loadOpsDuckDb(t.services, ws.id);
  await deployOpsModel(t.services, ws);
  key = (await createKey(t.services, ws, 'luminary', 'question')).value;
}, 60_000);
afterAll(async () => {
  await t.close();
  for (const cleanup of cleanups) await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

const ask = async (question: string, k = key) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${k}` }, payload: { question } });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const codes = (body: { provenance: { assumptions: Array<{ code: string }> } }) => body.provenance.assumptions.map((a) => a.code);

const viewerKey = (attributes: Record<string, string>) => viewerQuestionKey(t, ws, attributes);

describe('provenance', () => {
  it('a governed answer over a named period is high, with no assumptions', async () => {
    const body = await ask('tickets in the last 30 days');
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal: 'support', reveal_backed: true, freshness: expect.any(String), confidence: 'high', assumptions: [] });
    expect(body.data).toMatchObject({ metric: 'tickets', value: OPS_FIGURES.tickets, period: 'last_30_days' });
  });

  it('a governed answer without a period stays high and says which period it assumed', async () => {
    const body = await ask('how many tickets');
    expect(body.provenance).toMatchObject({ reveal_backed: true, confidence: 'high' });
    expect(body.provenance.assumptions).toEqual([{ code: 'period_assumed', message: expect.stringMatching(/names no period; the default window, last 30 days \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\), was used\./) }]);
    expect(body.data).toMatchObject({ period: 'last_30_days', value: OPS_FIGURES.tickets });
  });

  it('a refusal never looks governed: not reveal-backed, no value, no reveal, not high', async () => {
    const body = await ask('employee headcount in the Berlin office');
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
    expect(body.data).toEqual({ rows: [], columns: [] });
    expect(body.no_match.reason).toEqual(expect.any(String));
  });

  it('says no model is deployed in a workspace without one, not "domain undefined"', async () => {
    const empty = await seedWorkspace(t.services);
    const body = await ask('tickets last week', (await createKey(t.services, empty, 'luminary', 'question')).value);
    expect(body.answer).not.toMatch(/undefined/);
    expect(body.no_match.reason).toBe('No model is deployed in this workspace yet, so there are no governed metrics to answer from.');
    expect(body.answer).toMatch(/^I could not answer that from a governed metric: No model is deployed in this workspace yet/);
    expect(body.provenance).toMatchObject({ reveal_backed: false, confidence: 'medium' });
  });
});

describe('when data keys hide every row', () => {
  it.each([
    ['a count, which would read 0', 'tickets in the last 30 days'],
    ['a sum, which would read "no value"', 'distance in the last 30 days'],
  ])('says no rows are visible to the asker for %s, and gives no number', async (_what, question) => {
    const body = await ask(question, await viewerKey({ region: 'west' }));
    expect(body.answer).toMatch(/^No rows are visible to you for last 30 days \(.*\), so there is no (Tickets|Distance) to report\.$/);
    expect(body.answer).not.toMatch(/no value|was 0/);
    expect(body.data.value).toBeUndefined();
    expect(body.data.rows).toEqual([]);
    expect(body.provenance).toMatchObject({ reveal: 'support', reveal_backed: true });
    expect(codes(body)).toEqual(['no_rows_visible']);
  });

  it('names the missing attribute when the asker has none for a data key', async () => {
    const body = await ask('tickets in the last 30 days', await viewerKey({}));
    expect(body.data.value).toBeUndefined();
    expect(body.provenance.assumptions).toEqual([{ code: 'no_rows_visible', message: expect.stringMatching(/your account has no "region" attribute/) }]);
  });

  it('sees its own rows, as before', async () => {
    const body = await ask('tickets in the last 30 days', await viewerKey({ region: 'north' }));
    expect(body.data.value).toBe(30);
    expect(codes(body)).toEqual([]);
  });

  it('with every row visible, an empty period is a true zero, said as such', async () => {
    const body = await ask('tickets in 2001');
    expect(body.data.value).toBe(0);
    expect(body.answer).toMatch(/^Tickets for 2001 \(2001-01-01 to 2001-12-31\) was 0\./);
    expect(codes(body)).toEqual(['no_rows']);
  });
});

describe('top-N and bottom-N', () => {
  it('ranks only members: the NULL group (20 tickets, the most) is left out and the prose says so', async () => {
    const body = await ask('top 3 teams by tickets in the last 30 days');
    expect(body.data.rows).toEqual([
      { team: 'alpha', tickets: 15 },
      { team: 'beta', tickets: 10 },
      { team: 'gamma', tickets: 8 },
    ]);
    expect(body.data.value).toBe(OPS_FIGURES.tickets); // the total still counts every ticket
    expect(body.answer).toMatch(/Top 3 by team: alpha 15, beta 10, gamma 8\. Rows with no team are left out of the ranking; the total includes them\./);
    expect(codes(body)).toEqual(['null_group_excluded']);
  });

  it('bottom-N leaves out the NULL group too (its 1-minute average is the lowest)', async () => {
    const body = await ask('bottom 2 teams by resolution time in the last 30 days');
    expect(body.data.rows).toEqual([
      { team: 'alpha', resolution_time: 30 },
      { team: 'beta', resolution_time: 40 },
    ]);
    expect(body.answer).toMatch(/Bottom 2 by team: alpha 30 minutes, beta 40 minutes\./);
  });

  it('a breakdown without a limit keeps the NULL group, labelled', async () => {
    const body = await ask('tickets by team in the last 30 days');
    expect(body.data.rows).toHaveLength(5);
    expect(body.data.rows).toContainEqual({ team: null, tickets: 20 });
    expect(body.answer).toMatch(/By team: \(none\) 20, alpha 15, beta 10, gamma 8, delta 5\./);
    expect(codes(body)).toEqual([]);
  });

  it.runIf(withPostgres)('on PostgreSQL as well', async () => {
    const db = await createTestDatabase();
    cleanups.push(async () => {
      await t.services.connections.registry.closeAll();
      await db.drop();
    });
    const pgSpace = await seedWorkspace(t.services);
    await loadOpsPostgres(t.services, pgSpace.id, db.url);
    await deployOpsModel(t.services, pgSpace);
    const pgKey = (await createKey(t.services, pgSpace, 'luminary', 'question')).value;
    const top = await ask('top 3 teams by tickets in the last 30 days', pgKey);
    expect(top.data.rows.map((r: { team: string }) => r.team)).toEqual(['alpha', 'beta', 'gamma']);
    expect(codes(top)).toEqual(['null_group_excluded']);
    const bottom = await ask('bottom 2 teams by resolution time in the last 30 days', pgKey);
    expect(bottom.data.rows.map((r: { team: string }) => r.team)).toEqual(['alpha', 'beta']);
  });
});

describe('units in prose', () => {
  it.each([
    ['resolution time in the last 30 days', /^Resolution time for last 30 days \(.*\) was 27\.07 minutes\.$/],
    ['distance in the last 30 days', /^Distance for last 30 days \(.*\) was 725 km\.$/],
    ['cargo weight in the last 30 days', /^Cargo weight for last 30 days \(.*\) was 188\.5 kg\.$/],
    ['average temperature in the last 30 days', /^Average temperature for last 30 days \(.*\) was 7\.25 °C\.$/],
    ['rainfall in the last 30 days', /^Rainfall for last 30 days \(.*\) was 4\.3 mm\.$/],
  ])('%s', async (question, prose) => {
    const body = await ask(question);
    expect(body.answer).toMatch(prose);
  });

  it('keeps the number exactly as the warehouse returned it in data.value', async () => {
    const body = await ask('resolution time in the last 30 days');
    expect(body.data.value).toBeCloseTo(OPS_FIGURES.resolutionMinutes, 10);
  });
});

describe('snapshot metrics', () => {
  it('are answered over all rows, as of now, with no assumed period', async () => {
    const body = await ask('open tickets');
    expect(body.data).toMatchObject({ metric: 'open_tickets', value: OPS_FIGURES.openTickets, period: 'as_of_now' });
    expect(body.answer).toBe(`Open tickets as of now is ${OPS_FIGURES.openTickets}.`);
    expect(body.provenance).toMatchObject({ reveal: 'support', reveal_backed: true, confidence: 'high', assumptions: [] });
  });

  it('take "today" as now', async () => {
    const body = await ask('open tickets today');
    expect(body.data).toMatchObject({ value: OPS_FIGURES.openTickets, period: 'as_of_now' });
  });

  it('are refused, not answered as of now, when the question names another period', async () => {
    const body = await ask('open tickets last month');
    expect(body.data.value).toBeUndefined();
    expect(body.provenance).toMatchObject({ reveal_backed: false, confidence: 'medium' });
    expect(body.no_match.reason).toBe('Open tickets is counted as of now, not over a period, so it cannot be given for last month; ask without the period for the current figure.');
    expect(body.no_match.closest[0]).toEqual({ reveal: 'support', metric: 'open_tickets', label: 'Open tickets' });
  });

  it('include every metric of a reveal without a time dimension', async () => {
    const body = await ask('how many vehicles');
    expect(body.data).toMatchObject({ value: OPS_FIGURES.vehicles, period: 'as_of_now' });
    expect(body.provenance.freshness).toBeNull();
    const refused = await ask('vehicles in 2024');
    expect(refused.no_match.reason).toMatch(/^Vehicles is counted as of now, not over a period, so it cannot be given for 2024/);
  });

  it('break down with the NULL group labelled', async () => {
    const body = await ask('vehicles by depot');
    expect(body.answer).toBe('Vehicles as of now is 7. By depot: east 3, (none) 3, west 1.');
  });
});
