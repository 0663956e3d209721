// Deploys to one workspace apply one after the other, each validated against the model as the ones
// before it left it: two deploys that are each valid alone but clash together (the same node name in
// two projects; one project joining a node the other removes) never both commit, so the workspace never
// holds a model that does not link (it would then serve an empty model and break every scene). On the
// embedded store and on PostgreSQL, with two app instances sharing the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../src/core/cml/index.js';
import { ModelValidationError } from '../src/modeling/model-service.js';
import { seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const postgres = await hasService('postgres');

const node = (name: string, extra = '') => `node ${name} {\n  connection: warehouse\n  table: shop.${name}\n  dimension id { type: number  primary_key: true }\n${extra}}\n`;
const joining = (name: string, target: string) => node(name, `  dimension ${target}_id { type: number }\n  join ${target} { relationship: many_to_one  on: \${${target}_id} = \${${target}.id} }\n`);

interface Store {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

async function embedded(): Promise<Store> {
  const a = await startTestApp();
  // A second instance over the same open store (the embedded store belongs to one process).
  const b = await startTestApp({ store: a.store });
  return { a, b, close: async () => (await b.close(), await a.close()) };
}

async function onPostgres(): Promise<Store> {
  const db = await createTestDatabase();
  const a = await startTestApp({ databaseUrl: db.url });
  const b = await startTestApp({ databaseUrl: db.url });
  return { a, b, close: async () => (await a.close(), await b.close(), await db.drop()) };
}

const stores: Array<[string, () => Promise<Store>, boolean]> = [
  ['the embedded store', embedded, true],
  ['PostgreSQL', onPostgres, postgres],
];

describe.each(stores)('concurrent deploys on %s', (_, open, available) => {
  let s: Store;
  beforeAll(async () => {
    if (available) s = await open();
  }, 60_000);
  afterAll(async () => {
    if (available) await s.close();
  });

  /** The deployed files of the workspace link into a model (what every instance will load). */
  async function linksAfterwards(workspaceId: string): Promise<string[]> {
    const files = await s.a.services.projects.workspaceFiles(workspaceId);
    const { model, diagnostics } = compileModel(files.map((r) => ({ path: `${r.slug}/${r.path}`, content: r.content })));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    return [...model!.nodes.keys()].sort();
  }

  it.skipIf(!available)('never both commit two deploys that clash, whatever their interleaving', async () => {
    for (let round = 0; round < 6; round++) {
      const ws = await seedWorkspace(s.a.services);
      const by = { workspaceId: ws.id, userId: ws.members.editor.id, email: ws.members.editor.email };
      await s.a.services.models.deploy(by, 'base', [{ path: 'base.cml', content: node('stores') }]);
      // Each clash with the model each side leaves when it is the one that commits.
      const clash: Array<{ deploy: () => Promise<unknown>; leaves: string[] }> =
        round % 2 === 0
          ? // The same new node name in two projects.
            [
              { deploy: () => s.a.services.models.deploy(by, 'north', [{ path: 'n.cml', content: node('regions') }]), leaves: ['regions', 'stores'] },
              { deploy: () => s.b.services.models.deploy(by, 'south', [{ path: 's.cml', content: node('regions') }]), leaves: ['regions', 'stores'] },
            ]
          : // One project joins `stores` while the other removes it.
            [
              { deploy: () => s.a.services.models.deploy(by, 'sales', [{ path: 'sales.cml', content: joining('sales', 'stores') }]), leaves: ['sales', 'stores'] },
              { deploy: () => s.b.services.models.deploy(by, 'base', [{ path: 'base.cml', content: node('depots') }]), leaves: ['depots'] },
            ];
      // Which side starts first alternates, so that each side is seen to win.
      if (Math.floor(round / 2) % 2 === 1) clash.reverse();
      const outcomes = await Promise.allSettled(clash.map((side) => side.deploy()));
      const failed = outcomes.filter((o) => o.status === 'rejected');
      expect(failed, `round ${round}`).toHaveLength(1);
      expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(ModelValidationError);
      const committed = clash[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
      const nodes = await linksAfterwards(ws.id);
      expect(nodes, `round ${round}`).toEqual(committed.leaves);
      // What committed is served: the live model is the deployed one, not an empty fallback.
      expect([...(await s.b.services.models.live(ws.id)).model.nodes.keys()].sort()).toEqual(nodes);
    }
  }, 120_000);
});
