// The lists the APIs answer, each with how to write its rows at given instants and how to read a page of
// it through the real routes (the console's, as the signed-in luminary of a fresh workspace).
import { hashPassword } from '../../src/identity/passwords.js';
import { at, consoleList, listContext, timeKey, uniqueTag, type ListContext, type ListUnderTest, type SeededRow } from './paged-lists.js';
import type { TestApp } from './app.js';

type Insert = (ctx: ListContext, instant: string) => Promise<string>;

/** A time-ordered list: one row per instant, ordered by (instant, id); `route` is its OpenAPI path. */
function timeList(name: string, order: 'asc' | 'desc', ctx: ListContext, path: string, field: string, insert: Insert, route = path): ListUnderTest {
  return {
    name,
    order,
    paged: true,
    route,
    async seed(instants) {
      const rows: SeededRow[] = [];
      for (const instant of instants) {
        const id = await insert(ctx, instant);
        rows.push({ id, sortKey: timeKey(instant, id) });
      }
      return rows;
    },
    read: consoleList(ctx, path, field),
  };
}

/** A list answered whole (no next_cursor): read once, held to the same order. */
function wholeList(list: ListUnderTest): ListUnderTest {
  const read = list.read;
  return { ...list, paged: false, read: (_limit, _cursor) => read(0, null) };
}

async function vault(ctx: ListContext, instant = '2031-01-01T00:00:00.000000Z'): Promise<string> {
  const row = await ctx.t.store.db
    .insertInto('vaults')
    .values({ workspace_id: ctx.workspace.id, name: `Vault ${uniqueTag()}`, created_by: ctx.workspace.members.luminary.id, created_at: at(instant), updated_at: at(instant) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function endpoint(ctx: ListContext, instant = '2031-01-01T00:00:00.000000Z'): Promise<string> {
  const row = await ctx.t.store.db
    .insertInto('webhook_endpoints')
    .values({ workspace_id: ctx.workspace.id, url: 'https://hooks.example.com/in', events: JSON.stringify(['*']), secret_sealed: 'sealed', created_at: at(instant), updated_at: at(instant) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function signal(ctx: ListContext, vaultId: string, instant = '2031-01-01T00:00:00.000000Z'): Promise<string> {
  const row = await ctx.t.store.db
    .insertInto('signals')
    .values({
      workspace_id: ctx.workspace.id,
      vault_id: vaultId,
      owner_id: ctx.workspace.members.luminary.id,
      name: `Signal ${uniqueTag()}`,
      watch: JSON.stringify({ node: 'orders', measure: 'order_count' }),
      condition: 'greater_than',
      threshold: 1,
      interval_seconds: 3600,
      enabled: false,
      created_at: at(instant),
      updated_at: at(instant),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A delivery to `hook` of an event written at the same instant. */
function deliveryRow(hook: string): Insert {
  return async (c, instant) => {
    const event = await c.t.store.db.insertInto('events').values({ workspace_id: c.workspace.id, type: 'model.deployed', payload: '{}', created_at: at(instant) }).returning('id').executeTakeFirstOrThrow();
    const row = await c.t.store.db
      .insertInto('webhook_deliveries')
      .values({ event_id: event.id, endpoint_id: hook, workspace_id: c.workspace.id, status: 'delivered', created_at: at(instant), updated_at: at(instant) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
}

/** A disabled schedule of a scene (the target is not a foreign key) to `endpointId`. */
async function schedule(ctx: ListContext, endpointId: string, instant = '2031-01-01T00:00:00.000000Z'): Promise<string> {
  const row = await ctx.t.store.db
    .insertInto('delivery_schedules')
    .values({
      workspace_id: ctx.workspace.id,
      owner_id: ctx.workspace.members.luminary.id,
      name: `Schedule ${uniqueTag()}`,
      target_kind: 'scene',
      target_id: '9b2a4c7e-0000-4000-8000-000000000000',
      endpoint_id: endpointId,
      cron: '0 9 * * 1',
      timezone: 'UTC',
      enabled: false,
      next_run_at: null,
      created_at: at(instant),
      updated_at: at(instant),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function historyRow(ctx: ListContext, instant: string) {
  return ctx.t.store.db
    .insertInto('query_history')
    .values({
      workspace_id: ctx.workspace.id,
      user_id: ctx.workspace.members.luminary.id,
      connection_name: 'warehouse',
      source: 'studio',
      surface: 'studio',
      origin: 'sql',
      sql: 'SELECT 1',
      status: 'success',
      created_at: at(instant),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((row) => row.id);
}

/** Every list with next_cursor, and the lists answered whole, each in a fresh workspace of `t`. */
export async function listsUnderTest(t: TestApp): Promise<ListUnderTest[]> {
  const ctx = async () => listContext(t);
  const lists: ListUnderTest[] = [];

  const scenes = await ctx();
  const scenesVault = await vault(scenes);
  lists.push(
    timeList('scenes', 'asc', scenes, '/api/scenes', 'scenes', async (c, instant) => {
      const row = await c.t.store.db
        .insertInto('scenes')
        .values({
          workspace_id: c.workspace.id,
          vault_id: scenesVault,
          name: `Scene ${uniqueTag()}`,
          node: 'orders',
          query: JSON.stringify({ dimensions: [], measures: ['order_count'], filters: [], sorts: [] }),
          visualization: JSON.stringify({ type: 'table' }),
          created_at: at(instant),
          updated_at: at(instant),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }),
  );

  const mosaics = await ctx();
  const mosaicsVault = await vault(mosaics);
  lists.push(
    timeList('mosaics', 'asc', mosaics, '/api/mosaics', 'mosaics', async (c, instant) => {
      const row = await c.t.store.db
        .insertInto('mosaics')
        .values({ workspace_id: c.workspace.id, vault_id: mosaicsVault, name: `Mosaic ${uniqueTag()}`, tiles: '[]', filters: '[]', created_at: at(instant), updated_at: at(instant) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }),
  );

  const signals = await ctx();
  const signalsVault = await vault(signals);
  lists.push(timeList('signals', 'asc', signals, '/api/signals', 'signals', (c, instant) => signal(c, signalsVault, instant)));

  const evaluations = await ctx();
  const evaluated = await signal(evaluations, await vault(evaluations));
  lists.push(
    timeList(
      'signal evaluations',
      'desc',
      evaluations,
      `/api/signals/${evaluated}/evaluations`,
      'evaluations',
      async (c, instant) => {
        const row = await c.t.store.db.insertInto('signal_evaluations').values({ signal_id: evaluated, evaluated_at: at(instant), value: 1, state: 'ok', fired: false }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      },
      '/api/signals/{signal_id}/evaluations',
    ),
  );

  const keys = await ctx();
  lists.push(
    timeList('keys', 'desc', keys, '/api/keys', 'keys', async (c, instant) => {
      const tag = uniqueTag();
      const row = await c.t.store.db
        .insertInto('api_keys')
        .values({ workspace_id: c.workspace.id, user_id: c.workspace.members.luminary.id, name: `Key ${tag}`, surface: 'question', prefix: `svc_sk_${tag}`, secret_hash: `hash-${tag}-${uniqueTag()}`, scopes: '[]', created_at: at(instant) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }),
  );

  const grants = await ctx();
  const client = await grants.t.services.oauth.authorization.register({ client_name: 'Paged agent', redirect_uris: ['https://agent.example/cb'] });
  lists.push(
    timeList('authorized applications', 'desc', grants, '/api/oauth/grants', 'grants', async (c, instant) => {
      const tag = uniqueTag();
      const row = await c.t.store.db
        .insertInto('oauth_grants')
        .values({
          client_id: client.client_id as string,
          workspace_id: c.workspace.id,
          user_id: c.workspace.members.luminary.id,
          scopes: '["query"]',
          resource: 'https://service.example/mcp',
          redirect_uri: 'https://agent.example/cb',
          code_hash: `hash-${tag}-${uniqueTag()}`,
          code_challenge: 'c'.repeat(43),
          code_expires_at: at(instant),
          code_used_at: at(instant),
          created_at: at(instant),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }),
  );

  const deliveries = await ctx();
  const hook = await endpoint(deliveries);
  lists.push(
    timeList('webhook deliveries', 'desc', deliveries, `/api/webhooks/${hook}/deliveries`, 'deliveries', deliveryRow(hook), '/api/webhooks/{id}/deliveries'),
  );

  const schedules = await ctx();
  const scheduleEndpoint = await endpoint(schedules);
  lists.push(timeList('delivery schedules', 'asc', schedules, '/api/delivery-schedules', 'schedules', (c, instant) => schedule(c, scheduleEndpoint, instant)));
  const scheduleRuns = await ctx();
  const ran = await schedule(scheduleRuns, await endpoint(scheduleRuns));
  lists.push(
    timeList(
      'delivery schedule runs',
      'desc',
      scheduleRuns,
      `/api/delivery-schedules/${ran}/runs`,
      'runs',
      async (c, instant) => {
        const row = await c.t.store.db.insertInto('delivery_schedule_runs').values({ schedule_id: ran, ran_at: at(instant), trigger: 'schedule', status: 'error', error: 'seeded', event_id: null, delivery_id: null }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      },
      '/api/delivery-schedules/{schedule_id}/runs',
    ),
  );

  const deployments = await ctx();
  const project = await deployments.t.store.db.insertInto('projects').values({ workspace_id: deployments.workspace.id, name: 'Paged', slug: `paged-${uniqueTag()}` }).returning('id').executeTakeFirstOrThrow();
  lists.push(
    timeList('deployments', 'desc', deployments, '/api/model/deployments', 'deployments', async (c, instant) => {
      const row = await c.t.store.db
        .insertInto('deployments')
        .values({ workspace_id: c.workspace.id, project_id: project.id, deployed_at: at(instant), deployed_by: c.workspace.members.luminary.id, deployed_by_email: c.workspace.members.luminary.email, changed_nodes: '[]' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }),
  );

  const history = await ctx();
  lists.push(timeList('query history (workspace)', 'desc', history, '/api/history', 'runs', historyRow));
  const ownHistory = await ctx();
  lists.push(timeList('query history (own runs)', 'desc', ownHistory, '/api/studio/history', 'runs', historyRow));

  // Answered whole: the order must still hold when rows share an instant.
  const endpoints = await ctx();
  lists.push(wholeList(timeList('webhook endpoints', 'asc', endpoints, '/api/webhooks', 'webhooks', endpoint)));
  const vaults = await ctx();
  lists.push(wholeList(timeList('vaults', 'asc', vaults, '/api/vaults', 'vaults', vault)));
  const members = await ctx();
  const memberHash = await hashPassword('member password one');
  lists.push(
    wholeList({
      ...timeList('members', 'asc', members, '/api/members', 'members', async () => ''),
      async seed(instants) {
        const rows: SeededRow[] = [];
        for (const instant of instants) {
          const email = `m-${uniqueTag()}@example.com`;
          const user = await members.t.services.members.createUser({ email, name: 'Member', passwordHash: memberHash });
          await members.t.store.db.insertInto('memberships').values({ workspace_id: members.workspace.id, user_id: user.id, role: 'viewer', attributes: '{}', created_at: at(instant) }).execute();
          rows.push({ id: user.id, sortKey: email });
        }
        return rows;
      },
    }),
  );
  return lists;
}
