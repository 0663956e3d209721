// Rollup builds wired into the services, on both metadata stores: a deploy of a model with a rollup over
// the demo warehouse plans its builds, the build loop runs them from the workspace's connection into
// the workspace's rollup file, GET /metrics counts them, and a deploy without the rollup removes it.
import { existsSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { rollupStorePath } from '../../src/rollups/rollup-store.js';
import { demoAppOn, METADATA_STORES, type DemoApp } from '../helpers/demo-on-stores.js';

const TOKEN = 'rollup-metrics-token-0123456789';

const extra = (rollup: string) => [
  {
    path: 'orders_by_month.cml',
    content: `node monthly_orders {
  connection: warehouse  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension channel { type: string }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  ${rollup}
}
`,
  },
];

const deploy = ({ t, ws }: DemoApp, rollup: string) => {
  const lum = ws.members.luminary;
  return t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'rollup-extra', extra(rollup));
};

const series = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

describe.each(METADATA_STORES)('rollup builds after a deploy on $store', (store) => {
  const { it, app } = demoAppOn(store, 300, { SVC_METRICS_TOKEN: TOKEN });

  it('a deploy plans the builds, the loop builds them, /metrics counts them, a deploy without the rollup drops it', async () => {
    const a = app();
    const { services } = a.t;
    await deploy(a, 'rollup by_month { dimensions: [channel]  measures: [order_count]  time: created_at  grain: day  partition: month  build_range: "last 2 months"  refresh: "1 hour" }');
    const [planned] = await services.rollupBuilds.list(a.ws.id);
    expect(planned).toMatchObject({ node: 'monthly_orders', rollup: 'by_month', state: 'pending', rows: 0, lastBuiltAt: null });
    expect(planned!.partitions).toBeGreaterThanOrEqual(1);
    expect(planned!.partitions).toBeLessThanOrEqual(3);

    const loop = new RollupBuildScheduler(services.rollupBuildRows, services.rollupBuilds, a.t.clock, 60_000, { pollMs: 60_000 });
    let recorded = 0;
    for (let n = await loop.tick(); n > 0; n = await loop.tick()) recorded += n;
    expect(recorded).toBe(planned!.partitions);
    const [built] = await services.rollupBuilds.list(a.ws.id);
    expect(built).toMatchObject({ state: 'ready', lastError: null, partitions: planned!.partitions });
    expect(existsSync(rollupStorePath(services.config.dataDir, a.ws.id))).toBe(true);

    const scraped = await a.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.statusCode).toBe(200);
    expect(series(scraped.body, 'svc_rollup_builds_started_total')).toBe(recorded);
    expect(series(scraped.body, 'svc_rollup_builds_total{outcome="success"}')).toBe(recorded);
    expect(series(scraped.body, 'svc_rollup_builds_total{outcome="error"}')).toBe(0);
    expect(series(scraped.body, 'svc_rollup_build_duration_seconds_count{outcome="success"}')).toBe(recorded);

    await deploy(a, '');
    expect(await services.rollupBuilds.list(a.ws.id)).toEqual([]);
    const rollups = await services.rollupStores.of(a.ws.id);
    expect(await rollups.columnTypes(built!.table)).toBeUndefined();
  });
});
