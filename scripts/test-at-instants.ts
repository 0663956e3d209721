// Runs test files at fixed instants, to show that they pass on any day rather than on the one they ran:
// each day of one week, then a late Sunday, a month's and a year's last half hour and both daylight-saving
// changes, some in a process time zone (TZ) far from UTC (test/helpers/instants.ts). At each instant the
// test clock starts there (TEST_NOW) and, when libfaketime is installed (Debian: apt-get install faketime),
// so does the machine's clock as this run's processes see it (spawned servers, receivers, the embedded
// engines), through `faketime` with an offset that every child process shares. The database servers keep
// their own clocks. Prints one line per instant: instant, zone, files, passed, failed, skipped; each run's
// output and JSON report are kept in test-artifacts/instants/.
//
//   npm run test:instants                                     the date-sensitive files below
//   npm run test:instants -- test/ask.test.ts                 those files
//   INSTANTS=Monday,Tuesday npm run test:instants             only the instants so labelled
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EDGES, WEEK, type Instant } from '../test/helpers/instants.js';

/** Every file that touches periods, questions, signals, delivery schedules and rollup refreshes (crons in a zone, build ranges relative to now), sessions, key expiry, webhook retries, retention or the history. */
export const DATE_SENSITIVE = [
  'src/core/answer',
  'src/answering',
  'test/ask.test.ts',
  'test/ask-values.test.ts',
  'test/ask-periods.test.ts',
  'test/ask-answers.test.ts',
  'test/ask-llm.test.ts',
  'test/answer-cache.test.ts',
  'test/answer/values-and-time.test.ts',
  'test/question-api.test.ts',
  'test/console/console-ask-budget.test.ts',
  'test/signals/',
  'test/deliveries/',
  'test/periods-any-day.test.ts',
  'test/retention.test.ts',
  'test/rollups/rollup-builds.test.ts',
  'test/rollups/rollup-build-range.test.ts',
  'test/rollups/rollup-partitions.test.ts',
  'test/sessions.test.ts',
  'test/session-cache.test.ts',
  'test/keys.test.ts',
  'test/auth-matrix.test.ts',
  'test/rate-limits.test.ts',
  'test/webhooks/delivery.test.ts',
  'test/webhooks/webhook-routes.test.ts',
  'test/webhooks/python-recipe.test.ts',
  'test/webhooks/kill-9.test.ts',
  'test/governed-history.test.ts',
  'test/history-batching.test.ts',
];

interface Run extends Instant {
  readonly tz?: string;
}

const SWEEP: readonly Run[] = [
  ...WEEK,
  { ...EDGES[0]!, tz: 'Pacific/Kiritimati' },
  { ...EDGES[0]!, tz: 'America/St_Johns' },
  EDGES[1]!,
  { ...EDGES[2]!, tz: 'America/St_Johns' },
  { ...EDGES[3]!, tz: 'Europe/Paris' },
  { ...EDGES[4]!, tz: 'Europe/Paris' },
];

const root = path.resolve(import.meta.dirname, '..');
const files = process.argv.slice(2).length ? process.argv.slice(2) : DATE_SENSITIVE;
const only = process.env.INSTANTS?.split(',').map((label) => label.trim());
const withFaketime = spawnSync('faketime', ['-f', '+0', 'true']).status === 0;
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const artifacts = path.join(root, 'test-artifacts', 'instants');
mkdirSync(artifacts, { recursive: true });

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: Array<{ status: string; fullName: string }> }>;
}

console.log(`${withFaketime ? 'faketime moves the machine clock of each run' : 'libfaketime is not installed: only the test clock moves'}; files: ${files.join(' ')}`);
let failedRuns = 0;
for (const run of SWEEP.filter((r) => !only || only.includes(r.label))) {
  const name = `${run.at.toISOString().replaceAll(':', '')}${run.tz ? `-${run.tz.replace('/', '_')}` : ''}`;
  const report = path.join(artifacts, `${name}.json`);
  const env = { ...process.env, TEST_NOW: run.at.toISOString(), ...(run.tz ? { TZ: run.tz } : {}) };
  const args = [vitest, 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...files];
  // An offset rather than a start time: every process of the run, started whenever, reads the same clock.
  const offsetSeconds = Math.round((run.at.getTime() - Date.now()) / 1000);
  const command = withFaketime ? ['faketime', ['-m', '-f', `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}`, process.execPath, ...args]] as const : [process.execPath, args] as const;
  const started = performance.now();
  const child = spawnSync(command[0], command[1], { cwd: root, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  writeFileSync(path.join(artifacts, `${name}.log`), `${child.stdout}\n${child.stderr}`);
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  let line: string;
  try {
    const result = JSON.parse(readFileSync(report, 'utf8')) as Report;
    const failures = result.testResults.flatMap((file) => file.assertionResults.filter((a) => a.status === 'failed').map((a) => `${path.relative(root, file.name)} > ${a.fullName}`));
    line = `${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests + result.numTodoTests} skipped (${result.testResults.length} files, ${minutes} min)`;
    if (failures.length || child.status !== 0) failedRuns++;
    for (const failure of failures) line += `\n    failed: ${failure}`;
  } catch {
    failedRuns++;
    line = `no report (exit ${child.status}): ${(child.stderr || child.stdout).slice(-2000)}`;
  }
  console.log(`${run.at.toISOString()}  ${run.label}${run.tz ? `, TZ=${run.tz}` : ''}: ${line}`);
}
process.exit(failedRuns ? 1 : 0);
