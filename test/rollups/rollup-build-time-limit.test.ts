// A rollup build has a time limit of its own (SVC_ROLLUP_BUILD_TIMEOUT_MS): a build reading more than
// it can in that time is stopped on the source and recorded as failed with the reason, to be retried.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/metadata-stores.js';
import { buildSuite } from './build-source.js';

/** The shortest limit the configuration allows. */
const LIMIT_MS = 1000;

// A trillion source rows: no build reads them within the limit.
const SLOW_CML = `node slow {
  connection: warehouse
  sql: SELECT a.range AS id, b.range AS k FROM range(1000000) a, range(1000000) b
  dimension id { type: number  primary_key: true }
  dimension k { type: number }
  measure total { type: sum  sql: \${k} }
  rollup everything { measures: [total]  refresh: on_deploy }
}
`;

describe.each(METADATA_STORES)('the rollup build time limit on $name', (metadata) => {
  const { model } = compileModel([{ path: 'slow.cml', content: SLOW_CML }]);
  const suite = buildSuite(metadata, 1, () => model!, LIMIT_MS);

  it('stops a build past its limit and records it failed with the reason', async () => {
    const { t, builds } = suite;
    const workspaceId = (await seedWorkspace(t.services)).id;
    expect((await builds.service.deployed(workspaceId, model!)).planned).toBe(1);
    const loop = new RollupBuildScheduler(builds.repo, builds.service, t.clock, LIMIT_MS, { pollMs: 60_000 });
    expect(await loop.tick()).toBe(1);
    const [status] = await builds.service.list(workspaceId);
    expect(status).toMatchObject({ rollup: 'everything', state: 'failed', rows: 0, lastBuiltAt: null });
    expect(status!.lastError).toMatch(/time limit|timed out|timeout/i);
    expect(await builds.registry.metrics()).toMatch(/svc_rollup_builds_total\{outcome="error"\} 1/);
  }, 30_000);
});
