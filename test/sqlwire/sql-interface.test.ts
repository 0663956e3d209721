// The SQL interface with node-postgres as a BI tool's driver: TLS and the key decide who is connected;
// a governed SELECT gives exactly C's rows for the same query and key, by the simple and the extended
// protocol, with parameters and a cursor; errors carry PostgreSQL's SQLSTATE and a hint; a revoked key
// fails at its next statement and loses its connection; every statement is in the query history as
// the key's; connections per workspace are capped. On both metadata stores.
import Cursor from 'pg-cursor';
import { describe, expect } from 'vitest';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { connect, failure, sqlAppOn } from './sql-app.js';

describe.each(METADATA_STORES)('the SQL interface on $store', (store) => {
  const { it, app } = sqlAppOn(store, { maxConnectionsPerWorkspace: 4 });
  const keyOf = async (scopes?: string[]) => (await createKey(app().t.services, app().ws, 'luminary', 'structured', scopes ? { scopes } : {})).value;
  const viaC = async (key: string, body: object) => {
    const response = await app().t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}` }, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: Record<string, unknown>[] }).data;
  };

  it('answers a governed SELECT with exactly the rows C answers, by the simple and the extended protocol', async () => {
    const key = await keyOf();
    const client = await connect(app().clientConfig(key));
    try {
      const expected = await viaC(key, { node: 'orders', dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'status', direction: 'asc' }] });
      const simple = await client.query('SELECT status, MEASURE(order_count) AS order_count FROM orders GROUP BY status ORDER BY status');
      expect(simple.rows.map((r) => ({ status: r.status, order_count: Number(r.order_count) }))).toEqual(expected);
      expect(simple.fields.map((f) => [f.name, f.dataTypeID])).toEqual([['status', 25], ['order_count', 20]]);
      const first = expected[0]!.status as string;
      const extended = await client.query({ text: 'SELECT status, COUNT(order_count) FROM orders WHERE status = $1 GROUP BY 1', values: [first] });
      expect(extended.rows).toHaveLength(1);
      expect(extended.rows[0].status).toBe(first);
      expect(Number(Object.values(extended.rows[0])[1])).toBe(expected[0]!.order_count);
    } finally {
      await client.end();
    }
  });

  it('begins days in the session\'s TimeZone once the client sets one, as C\'s timezone does', async () => {
    const key = await keyOf();
    const client = await connect(app().clientConfig(key));
    // Values as the server sent them (pg would read a timestamp in this process's zone).
    const byDay = { text: 'SELECT DATE_TRUNC(\'day\', created_at) AS day, MEASURE(order_count) AS n FROM orders GROUP BY 1 ORDER BY 1', types: { getTypeParser: () => (value: string) => value } };
    const rowsOf = (rows: Array<{ day: string; n: string }>) => rows.map((r) => [r.day.replace(' ', 'T'), Number(r.n)]);
    const cRows = async (timezone?: string) =>
      (await viaC(key, { node: 'orders', dimensions: ['created_at.day'], measures: ['order_count'], sorts: [{ field: 'created_at.day', direction: 'asc' }], ...(timezone ? { timezone } : {}) })).map((r) => [String(r['created_at.day']).slice(0, 19), r.order_count]);
    try {
      const inWorkspaceZone = rowsOf((await client.query(byDay)).rows);
      expect(inWorkspaceZone.map(([d, n]) => [String(d).slice(0, 19), n])).toEqual(await cRows());
      await client.query("SET TIME ZONE 'Pacific/Kiritimati'");
      const shifted = rowsOf((await client.query(byDay)).rows);
      expect(shifted.map(([d, n]) => [String(d).slice(0, 19), n])).toEqual(await cRows('Pacific/Kiritimati'));
      expect(shifted).not.toEqual(inWorkspaceZone);
      await client.query("SET TIME ZONE '+02:00'");
      const posix = await failure(client.query(byDay));
      expect([posix.code, posix.message]).toEqual(['22023', 'Unknown time zone "+02:00"; use an IANA name such as UTC or Europe/Paris']);
      await client.query('RESET TimeZone');
      expect(rowsOf((await client.query(byDay)).rows)).toEqual(inWorkspaceZone);
    } finally {
      await client.end();
    }
  });

  it('reads a portal a few rows at a time (a cursor with a fetch size)', async () => {
    const key = await keyOf();
    const client = await connect(app().clientConfig(key));
    try {
      const cursor = client.query(new Cursor('SELECT created_at::date AS day, MEASURE(order_count) AS n FROM orders GROUP BY 1 ORDER BY 1 LIMIT 12'));
      const read = (n: number) => new Promise<unknown[]>((resolve, reject) => cursor.read(n, (error, rows) => (error ? reject(error) : resolve(rows))));
      const batches: number[] = [];
      for (;;) {
        const rows = await read(5);
        if (rows.length === 0) break;
        batches.push(rows.length);
      }
      await cursor.close();
      expect(batches).toEqual([5, 5, 2]);
    } finally {
      await client.end();
    }
  });

  it('refuses writes, unknown tables and columns with the SQLSTATE PostgreSQL sends, and a hint', async () => {
    const client = await connect(app().clientConfig(await keyOf()));
    try {
      const write = await failure(client.query('DELETE FROM orders'));
      expect([write.code, write.message]).toEqual(['25006', 'cannot execute DELETE in a read-only transaction']);
      const table = await failure(client.query('SELECT MEASURE(order_count) FROM order'));
      expect(table.code).toBe('42601'); // `order` is a keyword: a syntax error, as PostgreSQL says
      const unknown = await failure(client.query('SELECT MEASURE(order_count) FROM ordres'));
      expect(unknown.code).toBe('42P01');
      expect(unknown.hint).toMatch(/orders/);
      const column = await failure(client.query('SELECT stauts FROM orders GROUP BY 1'));
      expect(column.code).toBe('42703');
      expect(column.hint).toMatch(/status/);
      // The connection goes on after errors.
      expect((await client.query('SELECT MEASURE(order_count) AS n FROM orders')).rows).toHaveLength(1);
    } finally {
      await client.end();
    }
  });

  it('answers session statements as PostgreSQL does: SET and SHOW, transactions, a failed block until ROLLBACK', async () => {
    const client = await connect(app().clientConfig(await keyOf()));
    try {
      await client.query("SET application_name = 'dashboard'");
      expect((await client.query('SHOW application_name')).rows).toEqual([{ application_name: 'dashboard' }]);
      // SHOW ALL by the extended protocol (a named statement): described with its three columns.
      const all = await client.query({ name: 'all-settings', text: 'SHOW ALL' });
      expect(all.fields.map((f) => f.name)).toEqual(['name', 'setting', 'description']);
      expect(all.rows).toContainEqual({ name: 'application_name', setting: 'dashboard', description: '' });
      const encoding = await failure(client.query("SET client_encoding = 'LATIN1'"));
      expect(encoding.code).toBe('22023');
      await client.query('BEGIN');
      expect((await failure(client.query('SELECT MEASURE(order_count) FROM ordres'))).code).toBe('42P01');
      expect((await failure(client.query('SELECT MEASURE(order_count) AS n FROM orders'))).code).toBe('25P02');
      await client.query('ROLLBACK');
      expect((await client.query('SELECT MEASURE(order_count) AS n FROM orders')).rows).toHaveLength(1);
    } finally {
      await client.end();
    }
  });

  it('lets in only TLS connections with a structured key that has the query scope, to a project of the workspace', async () => {
    const key = await keyOf();
    const plain = await failure(connect(app().clientConfig(key, { ssl: false })));
    expect([plain.code, plain.message]).toEqual(['28000', 'this server accepts only TLS connections']);
    const wrong = await failure(connect(app().clientConfig(`svc_api_${'0'.repeat(64)}`)));
    expect(wrong.code).toBe('28P01');
    expect(wrong.message).toBe('password authentication failed for user "analyst"');
    const notAKey = await failure(connect(app().clientConfig('hunter2')));
    expect(notAKey.code).toBe('28P01');
    const noScope = await failure(connect(app().clientConfig(await keyOf(['models:read']))));
    expect(noScope.code).toBe('28000');
    const database = await failure(connect(app().clientConfig(key, { database: 'nope' })));
    expect(database.code).toBe('3D000');
    expect(database.hint).toMatch(/demo/);
  });

  it('fails a revoked key at its next statement, and closes its connection', async () => {
    const created = await createKey(app().t.services, app().ws, 'luminary', 'structured');
    const client = await connect(app().clientConfig(created.value));
    const closed = new Promise<void>((resolve) => client.once('end', () => resolve()));
    client.on('error', () => undefined);
    expect((await client.query('SELECT MEASURE(order_count) AS n FROM orders')).rows).toHaveLength(1);
    const lum = app().ws.members.luminary;
    await app().t.services.keys.revoke({ workspace: { id: app().ws.id, plan: app().ws.plan }, user: { id: lum.id }, role: 'luminary' }, created.id);
    const refused = await failure(client.query('SELECT MEASURE(order_count) AS n FROM orders'));
    expect(refused.code).toBe('57P01');
    await closed;
  });

  it('records every governed statement in the query history under the key, and caps connections per workspace', async () => {
    const created = await createKey(app().t.services, app().ws, 'luminary', 'structured');
    const clients = [];
    try {
      for (let i = 0; i < 4; i++) clients.push(await connect(app().clientConfig(created.value)));
      const over = await failure(connect(app().clientConfig(created.value)));
      expect(over.code).toBe('53300');
      await clients[0]!.query("SELECT channel, SUM(gross_revenue) AS revenue FROM orders WHERE status IN ('completed', 'refunded') GROUP BY channel");
    } finally {
      for (const client of clients) await client.end();
    }
    await app().t.services.rawSql.flush();
    const rows = await app().t.store.db.selectFrom('query_history').select(['surface', 'key_id']).where('workspace_id', '=', app().ws.id).where('surface', '=', 'sql_api').execute();
    expect(rows.filter((r) => r.key_id === created.id).length).toBeGreaterThanOrEqual(1);
  });
});
