// Rollup answer counts kept in the metadata store: two instances' batches add up (never overwrite), and
// counts of a workspace deleted before its batch was written are dropped without holding back the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RollupAnswerCounts, tallyKey } from '../../src/rollups/rollup-answer-counts.js';
import { rollupAnswersRepo } from '../../src/store/rollup-answers-repo.js';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';

const hit = { used: { name: 'by_status', table: 't', partitionsBuiltAt: '', dataThrough: null } };
const miss = { used: null, candidates: [{ name: 'by_status', reasonCode: 'not_built' as const, reason: '' }, { name: 'monthly', reasonCode: 'lacks_dimension' as const, reason: '' }] };

describe('rollup answer counts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds up the batches of two instances and drops those of a deleted workspace', async () => {
    const repo = rollupAnswersRepo(t.store.db);
    const seen: string[] = [];
    const observer = { rollupAnswered: (outcome: string, reason: string) => seen.push(`${outcome}:${reason}`) };
    const one = new RollupAnswerCounts(repo, observer);
    const two = new RollupAnswerCounts(repo, observer);
    const kept = await seedWorkspace(t.services);
    const gone = await seedWorkspace(t.services);

    one.answered(kept.id, 'orders', hit);
    one.answered(kept.id, 'orders', miss);
    two.answered(kept.id, 'orders', hit);
    two.answered(gone.id, 'orders', hit);
    expect(seen).toEqual(['hit:', 'miss:not_built', 'miss:lacks_dimension', 'hit:', 'hit:']);
    await one.flush();
    await t.store.db.deleteFrom('workspaces').where('id', '=', gone.id).execute();
    await two.flush();

    const tallies = await one.tallies(kept.id);
    expect(tallies.get(tallyKey('orders', 'by_status'))).toEqual({ hits: 2, misses: 1, missReasons: { not_built: 1 } });
    expect(tallies.get(tallyKey('orders', 'monthly'))).toEqual({ hits: 0, misses: 1, missReasons: { lacks_dimension: 1 } });
    expect((await two.tallies(gone.id)).size).toBe(0);
    // The next batch of the instance whose batch held the deleted workspace is written.
    two.answered(kept.id, 'orders', hit);
    expect((await two.tallies(kept.id)).get(tallyKey('orders', 'by_status'))!.hits).toBe(3);
  });
});
