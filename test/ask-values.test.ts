// POST /api/v1/ask recognising values from the value index (DuckDB, test/helpers/values-model.ts):
// values of joined nodes, values far beyond the first 200 of a dimension, any case and accents, typos
// in long words; one index per data-key scope, never leaking a value across scopes; built after a
// deploy, refreshed when the data changes, dropped when a new model version is deployed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_GENERATION } from '../src/identity/generations.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { deployFreight, inLastWeek, setUpFreight, VALUES_CML, writeFreight } from './helpers/values-model.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-values-'));
let t: TestApp;
let ws: SeededWorkspace;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_VALUES_REFRESH_SECONDS: '1' } });
  ws = await seedWorkspace(t.services);
  await setUpFreight(t.services, ws);
  key = (await createKey(t.services, ws, 'luminary', 'question')).value;
}, 60_000);
afterAll(async () => {
  await t.close();
  await t.services.answers.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function askWith(app: TestApp, question: string, k: string) {
  const response = await app.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${k}` }, payload: { question } });
  expect(response.statusCode).toBe(200);
  return response.json();
}
const ask = (question: string, k = key) => askWith(t, question, k);

/** A question key of the viewer, whose data-key attributes are `attributes`. */
async function viewerKey(attributes: Record<string, string>): Promise<string> {
  await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify(attributes) }).where('workspace_id', '=', ws.id).where('user_id', '=', ws.members.viewer.id).execute();
  await t.services.shared.bump(IDENTITY_GENERATION);
  return (await createKey(t.services, ws, 'viewer', 'question')).value;
}

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || performance.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('values the planner finds', () => {
  it('builds the unrestricted and the no-attribute indexes after a deploy, before any question', async () => {
    const stats = await eventually(
      async () => t.services.answers.values.stats(ws.id),
      (s) => s.built >= 2,
    );
    expect(stats).toMatchObject({ scopes: 2, built: 2 });
  });

  it('answers with a value of a joined dimension', async () => {
    const body = await ask('revenue from customers in the enterprise segment last week');
    expect(body.provenance).toMatchObject({ reveal: 'freight', reveal_backed: true });
    expect(body.data.value).toBe(1670); // customers 0, 3, …, 498
    const other = await ask('revenue in the small business segment last week');
    expect(other.data.value).toBe(1670);
  });

  it('answers with a value far beyond the first 200 of its dimension', async () => {
    const body = await ask('revenue from Firm 0450 last week');
    expect(body.provenance.reveal_backed).toBe(true);
    expect(body.data.value).toBe(10);
  });

  it('finds a value whatever the case and accents of the question', async () => {
    expect((await ask('revenue in new york last week')).data.value).toBe(840); // customers 0, 6, …, 498
    expect((await ask('REVENUE IN NEW YORK LAST WEEK')).data.value).toBe(840);
    expect((await ask('revenue in Phíladelphia last week')).data.value).toBe(830);
  });

  it('finds a long value word typed with a typo', async () => {
    const body = await ask('revenue in Philadelpia last week');
    expect(body.provenance.reveal_backed).toBe(true);
    expect(body.data.value).toBe(830);
    // The answer says which stored value the misspelt word was read as.
    expect(body.provenance.assumptions).toContainEqual({ code: 'value_matched_approximately', message: expect.stringContaining('"Philadelphia"') });
  });

  it('an exactly spelt value assumes nothing about it', async () => {
    const body = await ask('revenue in Philadelphia last week');
    expect(body.data.value).toBe(830);
    expect(body.provenance.assumptions.map((a: { code: string }) => a.code)).not.toContain('value_matched_approximately');
  });
});

describe('data-key scopes', () => {
  it('never gives a restricted asker a filter from a value only in rows they cannot see, nor names it', async () => {
    const east = await viewerKey({ region: 'east' });
    expect((await ask('revenue in Boston last week', east)).data.value).toBe(830);
    // A decline may quote what the asker typed, never a stored value they did not type; and it reads
    // exactly as it would for a place that exists nowhere, so it tells nothing about the hidden rows.
    const withoutUsage = ({ usage: _usage, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
    for (const [question, typed] of [['revenue in Seattle last week', 'Seattle'], ['revenue in Seatle last week', 'Seatle'], ['revenue in sacramento last week', 'sacramento']] as const) {
      const body = await ask(question, east);
      expect(body.provenance.reveal_backed, question).toBe(false);
      expect(body.data.value, question).toBeUndefined();
      expect(JSON.stringify(body).replaceAll(typed, ''), question).not.toMatch(/Seattle|Sacramento/);
      const nowhere = await ask(question.replace(typed, 'Zqxville'), east);
      expect(withoutUsage(body), question).toBe(withoutUsage(nowhere).replaceAll('Zqxville', typed));
    }
    // The unrestricted asker does see them.
    expect((await ask('revenue in Seattle last week')).data.value).toBe(830); // customers 3, 9, …, 495
  });

  it('shares one index between askers whose attributes differ only where no data key looks', async () => {
    const first = await viewerKey({ region: 'west', team: 'red' });
    expect((await ask('revenue in Portland last week', first)).data.value).toBe(840); // customers 1, 7, …, 499
    const before = t.services.answers.values.stats(ws.id).scopes;
    const second = await viewerKey({ region: 'west', team: 'blue' });
    expect((await ask('revenue in Portland last week', second)).data.value).toBe(840);
    expect(t.services.answers.values.stats(ws.id).scopes).toBe(before);
    expect((await ask('revenue in Boston last week', second)).provenance.reveal_backed).toBe(false);
  });
});

describe('refresh and deploys', () => {
  it('finds a value added to the data after the next refresh, without failing meanwhile', async () => {
    const at = inLastWeek(t.clock.now());
    await writeFreight(t.services, ws.id, ["INSERT INTO logistics.customers VALUES (9001, 'Firm 9001', 'Consumer', 'Denver')", `INSERT INTO logistics.shipments VALUES (9001, 9001, 'east', '${at}', 25.0)`]);
    const body = await eventually(
      () => ask('revenue in Denver last week'),
      (b) => b.provenance.reveal_backed === true,
    );
    expect(body.data.value).toBe(25);
  });

  it('drops the old version\'s indexes when a new version is deployed', async () => {
    const before = t.services.answers.values.stats(ws.id).versions;
    expect(before).toHaveLength(1);
    await deployFreight(t.services, ws, VALUES_CML.replace('dimension city    { type: string }', 'dimension city    { type: string  hidden: true }'));
    const after = await eventually(
      async () => t.services.answers.values.stats(ws.id),
      (s) => s.versions.length === 1 && s.versions[0] !== before[0] && s.built >= 2,
    );
    expect(after.versions).toHaveLength(1);
    expect(after.versions[0]).toBeGreaterThan(before[0]!);
    expect((await ask('revenue in Boston last week')).provenance.reveal_backed).toBe(false);
    expect((await ask('revenue in the enterprise segment last week')).data.value).toBe(1670);
  });
});

describe('the cap per dimension', () => {
  it('indexes at most the configured number of values of a dimension', async () => {
    const capped = await startTestApp({ env: { SVC_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'svc-ask-values-cap-')), SVC_VALUES_PER_DIMENSION: '100' } });
    try {
      const space = await seedWorkspace(capped.services);
      await setUpFreight(capped.services, space);
      const k = (await createKey(capped.services, space, 'luminary', 'question')).value;
      expect((await askWith(capped, 'revenue from Firm 0050 last week', k)).data.value).toBe(10);
      expect((await askWith(capped, 'revenue from Firm 0450 last week', k)).provenance.reveal_backed).toBe(false);
    } finally {
      await capped.close();
      await capped.services.answers.close();
    }
  }, 60_000);
});

describe('shutdown', () => {
  it('starts no value build once closed, even for a deploy whose model loads after the close', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-values-close-'));
    const own = await startTestApp({ env: { SVC_DATA_DIR: dir } });
    try {
      const workspace = await seedWorkspace(own.services);
      await own.services.answers.close();
      // A deploy after the close (its listener tells the answer service): no value build may start.
      await setUpFreight(own.services, workspace);
      own.services.answers.modelDeployed(workspace.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(own.services.answers.values.stats(workspace.id)).toMatchObject({ scopes: 0, built: 0 });
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
