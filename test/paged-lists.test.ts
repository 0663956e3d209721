// Every list of the APIs on both metadata stores, with rows that share one instant (as a webhook fan-out's
// deliveries share their transaction's now()) and rows a microsecond apart: read with pages of 1, 2 and
// 5 rows, each row appears exactly once and in order; a cursor that is not a next_cursor is a 400.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCall, seedWorkspace, signIn, startTestApp, type TestApp } from './helpers/app.js';
import { listsUnderTest } from './helpers/paged-list-catalog.js';
import { expectEveryRowOnceInOrder, expectMalformedCursorsRefused, PAGING_INSTANTS, readAllPages, type ListUnderTest } from './helpers/paged-lists.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const PAGE_SIZES = [1, 2, 5] as const;

/** Runs the check on every list and names each list that failed it, so one run shows them all. */
async function failuresOf(lists: readonly ListUnderTest[], check: (list: ListUnderTest) => Promise<void>): Promise<string[]> {
  const failures: string[] = [];
  for (const list of lists) {
    try {
      await check(list);
    } catch (error) {
      failures.push(`${list.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return failures;
}

function pagingSuite(store: string, open: () => Promise<{ t: TestApp; drop?: () => Promise<void> }>) {
  describe(`paged lists on ${store}`, () => {
    let t: TestApp;
    let drop: (() => Promise<void>) | undefined;
    let lists: ListUnderTest[];

    beforeAll(async () => {
      ({ t, drop } = await open());
      lists = await listsUnderTest(t);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await drop?.();
    });

    it('every list shows each row exactly once, in order, whatever the page size', async () => {
      expect(await failuresOf(lists, (list) => expectEveryRowOnceInOrder(list, PAGING_INSTANTS, PAGE_SIZES))).toEqual([]);
    }, 120_000);

    it('every list the API pages (a next_cursor in its answer) is one of the lists above', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, { get?: { responses?: Record<string, unknown> } }> };
      const pagedRoutes = Object.entries(doc.paths)
        .filter(([, ops]) => JSON.stringify(ops.get?.responses?.['200'] ?? {}).includes('"next_cursor"'))
        // C's /v1 lists are the console's routes under keys: the same handler, tested through /api.
        .map(([route]) => route.replace(/^\/v1\//, '/api/'));
      expect(pagedRoutes.length).toBeGreaterThanOrEqual(10);
      const covered = new Set(lists.filter((l) => l.paged).map((l) => l.route));
      expect([...new Set(pagedRoutes)].filter((route) => !covered.has(route))).toEqual([]);
    });

    it('a cursor that is not a next_cursor is 400 invalid_cursor on every paged list', async () => {
      expect(await failuresOf(lists.filter((l) => l.paged), expectMalformedCursorsRefused)).toEqual([]);
    }, 60_000);

    it("rows one transaction wrote with the store's own now() page whole: 25 deliveries of one fan-out by 5", async () => {
      const workspace = await seedWorkspace(t.services);
      const cookie = await signIn(t.app, workspace.members.luminary.email);
      const db = t.store.db;
      const endpoint = await db
        .insertInto('webhook_endpoints')
        .values({ workspace_id: workspace.id, url: 'https://hooks.example.com/in', events: JSON.stringify(['*']), secret_sealed: 'sealed' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ids = await db.transaction().execute(async (trx) => {
        const written: string[] = [];
        for (let i = 0; i < 25; i++) {
          const event = await trx.insertInto('events').values({ workspace_id: workspace.id, type: 'model.deployed', payload: '{}' }).returning('id').executeTakeFirstOrThrow();
          const row = await trx.insertInto('webhook_deliveries').values({ event_id: event.id, endpoint_id: endpoint.id, workspace_id: workspace.id }).returning('id').executeTakeFirstOrThrow();
          written.push(row.id);
        }
        return written;
      });
      const instants = await db.selectFrom('webhook_deliveries').select(sql<string>`count(distinct created_at)`.as('n')).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(Number(instants.n)).toBe(1);
      const list: ListUnderTest = {
        name: 'deliveries of one fan-out',
        order: 'desc',
        paged: true,
        seed: async () => [],
        async read(limit, cursor) {
          const response = await consoleCall(t, cookie, 'GET', `/api/webhooks/${endpoint.id}/deliveries?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
          const body = response.json() as { deliveries: Array<{ id: string }>; next_cursor: string | null };
          return { statusCode: response.statusCode, body: response.body, page: { ids: body.deliveries.map((d) => d.id), nextCursor: body.next_cursor } };
        },
      };
      expect(await readAllPages(list, 5, 10)).toEqual([...ids].sort().reverse());
    }, 60_000);
  });
}

pagingSuite('PGlite', async () => ({ t: await startTestApp() }));

if (await hasService('postgres')) {
  pagingSuite('PostgreSQL', async () => {
    const db = await createTestDatabase();
    return { t: await startTestApp({ databaseUrl: db.url }), drop: db.drop };
  });
}
