// Deploying models: validation with line-and-column diagnostics, all-or-nothing writes, changed
// nodes, names unique across a workspace's projects, every instance relinking after a deploy, and
// the demo: generated warehouse + deployed model answering a compiled query.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileQuery } from '../src/core/semantic/compile.js';
import { semanticQuerySchema } from '../src/core/semantic/query.js';
import { DIALECTS } from '../src/core/sql/dialects.js';
import { DEMO_MODEL_DIR, readModelDir, setUpDemo } from '../src/demo-setup.js';
import { ModelService, ModelValidationError } from '../src/modeling/model-service.js';
import { seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

let t: TestApp;
let ws: SeededWorkspace;
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-modeling-'));

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const by = () => ({ workspaceId: ws.id, userId: ws.members.editor.id, email: ws.members.editor.email });
const node = (name: string, extra = '') => `node ${name} {\n  connection: warehouse\n  table: shop.${name}\n  dimension id { type: number  primary_key: true }\n${extra}}\n`;

describe('deploy', () => {
  it('refuses a model with errors (422, every diagnostic with line and column) and changes nothing', async () => {
    await t.services.models.deploy(by(), 'alpha', [{ path: 'a.cml', content: node('apples') }]);
    const attempt = t.services.models.deploy(by(), 'alpha', [
      { path: 'a.cml', content: node('apples', '  measure total { type: sum  sql: ${TABLE}.amount }\n  dimension id { type: number }\n') },
      { path: 'b.cml', content: 'node pears {\n  table: shop.pears\n}\n' },
    ]);
    await expect(attempt).rejects.toBeInstanceOf(ModelValidationError);
    const error = (await attempt.catch((e: unknown) => e)) as ModelValidationError;
    expect(error.status).toBe(422);
    expect(error.diagnostics.length).toBeGreaterThanOrEqual(2);
    for (const d of error.diagnostics) {
      expect(d).toMatchObject({ file: expect.stringMatching(/^[ab]\.cml$/), line: expect.any(Number), column: expect.any(Number), code: expect.any(String) });
    }
    expect(error.diagnostics.find((d) => d.file === 'a.cml')!.line).toBe(6); // the duplicate `dimension id`
    const live = await t.services.models.live(ws.id);
    expect([...live.model.nodes.keys()]).toEqual(['apples']);
    expect(live.model.nodes.get('apples')!.measures.size).toBe(0);
  });

  it('records who deployed, when, why, and which nodes changed', async () => {
    await t.services.models.deploy(by(), 'beta', [{ path: 'n.cml', content: node('bananas') + node('cherries') }]);
    const second = await t.services.models.deploy(
      by(),
      'beta',
      [{ path: 'n.cml', content: node('bananas', '  measure n { type: count }\n') + node('dates') }],
      { message: 'add count', prUrl: 'https://git.example.com/pr/7' },
    );
    expect(second).toMatchObject({ deployed_by_email: ws.members.editor.email, message: 'add count', pr_url: 'https://git.example.com/pr/7' });
    expect(second.changed_nodes).toEqual(['bananas', 'cherries', 'dates']);
  });

  it("refuses a node name another project of the workspace already uses", async () => {
    const attempt = t.services.models.deploy(by(), 'gamma', [{ path: 'dup.cml', content: node('apples') }]);
    await expect(attempt).rejects.toBeInstanceOf(ModelValidationError);
    const error = (await attempt.catch((e: unknown) => e)) as ModelValidationError;
    expect(error.diagnostics.some((d) => /apples/.test(d.message))).toBe(true);
  });

  it('validate reports without writing', async () => {
    const result = await t.services.models.validate(ws.id, 'alpha', [{ path: 'a.cml', content: 'node {' }]);
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ file: 'a.cml', line: 1 });
    expect([...(await t.services.models.live(ws.id)).model.nodes.keys()]).toContain('apples');
  });

  it('another instance sees a deploy on its next request; a model in use is never changed under it', async () => {
    const other = new ModelService(t.store, t.services.shared, t.clock);
    const before = await other.live(ws.id);
    await t.services.models.deploy(by(), 'delta', [{ path: 'e.cml', content: node('elderberries') }]);
    const after = await other.live(ws.id);
    expect(after.model.nodes.has('elderberries')).toBe(true);
    expect(before.model.nodes.has('elderberries')).toBe(false); // the old model object is untouched
  });
});

describe('the demo', () => {
  it('its model compiles cleanly, and the demo setup answers a governed query on the generated warehouse', async () => {
    const demoWs = await seedWorkspace(t.services);
    const lum = demoWs.members.luminary;
    const setup = await setUpDemo(t.services, { workspaceId: demoWs.id, userId: lum.id, email: lum.email }, { orders: 2000 });
    const live = await t.services.models.live(demoWs.id);
    expect([...live.model.nodes.keys()].sort()).toEqual(['customers', 'order_items', 'orders', 'products']);
    const metrics = [...live.model.reveals.values()].reduce((n, r) => n + r.metrics.size, 0);
    expect(metrics).toBeGreaterThanOrEqual(10);
    for (const reveal of live.model.reveals.values()) {
      expect(reveal.domain).toBe('commerce');
      for (const metric of reveal.metrics.values()) {
        expect(metric.label && metric.description && metric.unit && metric.synonyms.length).toBeTruthy();
      }
    }
    expect((await readModelDir(DEMO_MODEL_DIR)).length).toBeGreaterThan(0);

    expect(setup.orders).toBe(2000);
    const { warehouse } = await t.services.connections.warehouse(demoWs.id, 'warehouse');
    try {
      const compiled = compileQuery(live.model, semanticQuerySchema.parse({ node: 'orders', dimensions: ['status'], measures: ['order_count'] }), {
        dialect: DIALECTS.duckdb,
        attributes: { region: '*' },
        now: t.clock.now(),
      });
      const result = await warehouse.run(compiled.sql, compiled.params, { maxRows: 100, timeoutMs: 10_000 });
      expect(result.rows.reduce((sum, row) => sum + Number(row.order_count), 0)).toBe(2000);
    } finally {
      await t.services.connections.registry.closeAll();
    }
  });
});
