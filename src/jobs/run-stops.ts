// How a scheduled run that cannot go on stops, and says why: signals (their owner may no longer read
// what they watch) and delivery schedules (their runs keep failing). Both are left disabled, without a
// next run, the reason kept in `stopped_reason` and shown by the API until whoever enables (or, for a
// schedule, edits) it again has seen it: firing forever and failing on every tick helps nobody.

/** The columns a stopped row is written with. */
export function stoppedFields(reason: string): { enabled: false; next_run_at: null; stopped_reason: string } {
  return { enabled: false, next_run_at: null, stopped_reason: reason };
}

/** Failed runs in a row after which a delivery schedule stops. */
export const FAILED_RUNS_TO_STOP = 5;

/** Why a delivery schedule stopped after its failed runs, the last one's error included. */
export function failedRunsReason(failed: number, lastError: string): string {
  return `Stopped after ${failed} failed runs in a row (the last: ${lastError}); edit or resume the schedule to run it again`;
}
