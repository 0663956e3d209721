// A client's cancel over the SQL interface stops the query on the warehouse, not only the wait: a
// CancelRequest (what psql's Ctrl-C and JDBC's Statement.cancel send, over a second connection) ends
// the statement with 57014, and the warehouse's pg_stat_activity no longer shows its query; so does a
// client that goes away mid-statement. The governed query waits on a lock the test holds, so that it
// runs until something stops it, with no sleep to time; the wait for it to go is bounded well below the
// warehouse time limit (30 s), which would otherwise be what ends it. Another client's identical
// statement, waiting at the same time, is not cancelled with it and gets its rows; a cancelled run is
// never cached.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { cancelRunning } from '../../src/core/warehouse/postgres-cancel.js';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { waitFor } from '../helpers/network.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { connect, failure, sqlAppOn } from './sql-app.js';

const PROJECT = 'held';
const MODEL = `
node held {
  label: "Held rows"
  domain: operations
  connection: heldpg
  table: public.held
  dimension id { type: number  primary_key: true }
  measure row_count { type: count }
}
`;

describe.skipIf(!(await hasService('postgres')))('cancelling a governed statement over the SQL interface', () => {
  const { it, app } = sqlAppOn(METADATA_STORES[0]!);
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let locker: pg.Client;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    locker = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await locker.connect();
    await admin.query('create table held (id int primary key); insert into held select generate_series(1, 3)');
    const url = new URL(database.url);
    const { services } = app().t;
    const { ws } = app();
    const lum = ws.members.luminary;
    await services.connections.create(ws.id, {
      name: 'heldpg',
      engine: 'postgres',
      settings: { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) },
    });
    await services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, PROJECT, [{ path: 'held.cml', content: MODEL }]);
    key = (await createKey(services, ws, 'luminary', 'structured')).value;
  }, 60_000);
  afterAll(async () => {
    await locker?.end();
    await admin?.end();
    await database?.drop();
  });

  /** Warehouse sessions of the service waiting on the test's lock now. */
  const waiting = async () =>
    (
      await admin.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'analytics-warehouse' and wait_event_type = 'Lock' and state = 'active'`,
      )
    ).rows[0]!.n;
  const lock = async () => void (await locker.query('begin; lock table held in access exclusive mode'));
  const unlock = async () => void (await locker.query('rollback'));
  const client = () => connect(app().clientConfig(key, { database: PROJECT }));
  /** A CancelRequest for `target`'s running statement, over a connection of its own (as psql sends it). */
  const cancel = (target: pg.Client) => cancelRunning({ host: '127.0.0.1', port: app().sql.port }, target);

  it('a CancelRequest ends the statement with 57014 and its query on the warehouse; nothing is cached', async () => {
    const sql = 'SELECT MEASURE(row_count) AS n FROM held WHERE id > 0';
    const cached = app().t.services.resultCache.stats().entries;
    const c = await client();
    await lock();
    try {
      const statement = failure(c.query(sql));
      await waitFor('the warehouse query waiting on the lock', async () => (await waiting()) === 1);
      cancel(c);
      const error = await statement;
      expect([error.code, error.message]).toEqual(['57014', 'canceling statement due to user request']);
      // The lock is still held: only the cancel can have ended the query.
      await waitFor('the warehouse query to end', async () => (await waiting()) === 0);
      expect(app().t.services.resultCache.stats().entries).toBe(cached);
      await unlock();
      // The same statement on the same connection now runs, and reads the table as it is now.
      await admin.query('insert into held values (4)');
      expect((await c.query(sql)).rows).toEqual([{ n: '4' }]);
    } finally {
      await unlock();
      await admin.query('delete from held where id = 4');
      await c.end();
    }
  });

  it("one client's cancel leaves another's identical statement running, which then gets its rows", async () => {
    const sql = 'SELECT MEASURE(row_count) AS n FROM held WHERE id < 100';
    const [first, second] = [await client(), await client()];
    await lock();
    try {
      const cancelled = failure(first.query(sql));
      const answered = second.query(sql);
      await waitFor('both warehouse queries waiting on the lock', async () => (await waiting()) === 2);
      cancel(first);
      expect((await cancelled).code).toBe('57014');
      await waitFor('the cancelled query to end, the other to wait on', async () => (await waiting()) === 1);
      await unlock();
      expect((await answered).rows).toEqual([{ n: '3' }]);
    } finally {
      await unlock();
      await Promise.all([first.end(), second.end()]);
    }
  });

  it('a client that disconnects mid-statement stops its query on the warehouse', async () => {
    const c = await client();
    await lock();
    try {
      const statement = c.query('SELECT MEASURE(row_count) AS n FROM held WHERE id <> 0').catch(() => undefined);
      await waitFor('the warehouse query waiting on the lock', async () => (await waiting()) === 1);
      await c.end();
      await statement;
      await waitFor('the warehouse query to end', async () => (await waiting()) === 0);
    } finally {
      await unlock();
    }
  });
});
