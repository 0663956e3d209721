// Planning rollup builds (pure): partitions over the build range bounded by the source's span, which
// builds a refresh makes due (only partitions open when last built), on_deploy, and the retry wait.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { addUnits, formatWall, startOf, wallClock } from '../../src/core/semantic/time.js';
import { dueOnDeploy, nextBuildAfter, plannedBuilds, retryAfter, WHOLE_TABLE } from '../../src/rollups/rollup-plan.js';
import { TEST_NOW } from '../helpers/clock.js';

const HOUR = 3_600_000;

function rollupOf(rule: string) {
  const content = `node events {
  connection: warehouse  table: events
  dimension id { type: number  primary_key: true }
  dimension happened_at { type: timestamp }
  measure event_count { type: count }
  rollup r { measures: [event_count]  ${rule} }
}
`;
  const { model, diagnostics } = compileModel([{ path: 'events.cml', content }]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { model: model!, rollup: model!.nodes.get('events')!.rollups[0]! };
}

const today = startOf('day', wallClock(TEST_NOW, 'UTC'));

describe('planned builds', () => {
  it('a rollup without partition is one build of the whole table', () => {
    const { model, rollup } = rollupOf('refresh: on_deploy');
    const builds = plannedBuilds(model, rollup, TEST_NOW);
    expect(builds.map((b) => [b.start, b.end])).toEqual([[WHOLE_TABLE, WHOLE_TABLE]]);
  });

  it('partitions run from the build range start to the current partition', () => {
    const { model, rollup } = rollupOf('time: happened_at  grain: hour  partition: day  build_range: "last 2 days"  refresh: "1 hour"');
    const starts = plannedBuilds(model, rollup, TEST_NOW).map((b) => b.start);
    expect(starts).toEqual([-2, -1, 0].map((d) => formatWall(addUnits('day', today, d))));
  });

  it("without a build range they start at the source's first rows, and always reach the current partition", () => {
    const { model, rollup } = rollupOf('time: happened_at  grain: day  partition: month  refresh: "1 day"');
    const thisMonth = startOf('month', today);
    // Rows from five months ago to two months ago: the months since are planned too (empty), since an
    // answer from the rollup needs every partition up to the one holding now.
    const span = { first: addUnits('month', thisMonth, -5), last: addUnits('month', thisMonth, -2) };
    const builds = plannedBuilds(model, rollup, TEST_NOW, span);
    expect(builds.map((b) => b.start)).toEqual([-5, -4, -3, -2, -1, 0].map((m) => formatWall(addUnits('month', thisMonth, m))));
    expect(builds[0]!.end).toBe(formatWall(addUnits('month', thisMonth, -4)));
    // Without a span nor a range start, only the current partition is known.
    expect(plannedBuilds(model, rollup, TEST_NOW).map((b) => b.start)).toEqual([formatWall(thisMonth)]);
  });

  it('a build range starts them at its start, whatever the source holds', () => {
    const { model, rollup } = rollupOf('time: happened_at  grain: hour  partition: day  build_range: "last 3 days"  refresh: "1 hour"');
    const span = { first: addUnits('day', today, -1), last: today };
    expect(plannedBuilds(model, rollup, TEST_NOW, span).map((b) => b.start)).toEqual([-3, -2, -1, 0].map((d) => formatWall(addUnits('day', today, d))));
  });

  it('partitions are planned in the rollup zone', () => {
    const { model, rollup } = rollupOf('time: happened_at  grain: hour  partition: day  timezone: "Pacific/Kiritimati"  build_range: "last 1 day"  refresh: "1 hour"');
    const wallToday = startOf('day', wallClock(TEST_NOW, 'Pacific/Kiritimati'));
    expect(plannedBuilds(model, rollup, TEST_NOW).map((b) => b.start)).toEqual([formatWall(addUnits('day', wallToday, -1)), formatWall(wallToday)]);
  });
});

describe('when a build is next due', () => {
  const end = formatWall(addUnits('day', today, 1));
  const closedEnd = formatWall(today);

  it('an open partition refreshes by its interval; a partition built after it closed never again', () => {
    const { rollup } = rollupOf('time: happened_at  grain: hour  partition: day  refresh: "15 minutes"');
    expect(nextBuildAfter(rollup, end, TEST_NOW)).toEqual(new Date(TEST_NOW.getTime() + 15 * 60_000));
    expect(nextBuildAfter(rollup, closedEnd, TEST_NOW)).toBeNull();
    // Built while still open, it is refreshed once more after it closed, to read its last rows.
    expect(nextBuildAfter(rollup, closedEnd, new Date(TEST_NOW.getTime() - 24 * HOUR))).not.toBeNull();
  });

  it('a cron is read in the rollup zone', () => {
    const { rollup } = rollupOf('refresh: "0 3 * * *"  timezone: "Asia/Tokyo"');
    const next = nextBuildAfter(rollup, WHOLE_TABLE, TEST_NOW)!;
    expect(next.getTime()).toBeGreaterThan(TEST_NOW.getTime());
    expect(next.getTime() - TEST_NOW.getTime()).toBeLessThanOrEqual(24 * HOUR);
    expect(wallClock(next, 'Asia/Tokyo').toISOString().slice(11, 19)).toBe('03:00:00');
  });

  it('on_deploy waits for a deploy, which makes never-built and open builds due', () => {
    const { rollup } = rollupOf('time: happened_at  grain: hour  partition: day  refresh: on_deploy');
    expect(nextBuildAfter(rollup, end, TEST_NOW)).toBeNull();
    expect(dueOnDeploy(rollup, end, TEST_NOW)).toBe(true);
    expect(dueOnDeploy(rollup, closedEnd, TEST_NOW)).toBe(false);
    expect(dueOnDeploy(rollup, closedEnd, null)).toBe(true);
    const { rollup: hourly } = rollupOf('refresh: "1 hour"');
    expect(dueOnDeploy(hourly, WHOLE_TABLE, TEST_NOW)).toBe(false);
  });

  it('a failed build waits longer after each failure, at most an hour', () => {
    const waits = [1, 2, 3, 12].map((attempts) => retryAfter(attempts, TEST_NOW).getTime() - TEST_NOW.getTime());
    expect(waits).toEqual([30_000, 60_000, 120_000, HOUR]);
  });
});
