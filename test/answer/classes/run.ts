// Asks the class sets and the held-back domain through the real answer pipeline, exactly as the
// unseen sets are asked (unseen/harness.ts: offline planner, DuckDB warehouses, deployed models, a
// luminary who sees every row, now fixed at UNSEEN_NOW), in one run, and hands back the two apart.
import { HOLDOUT_DOMAINS } from '../classes-holdout/domains.js';
import { runUnseenSets, type DomainRun } from '../unseen/harness.js';
import { CLASS_DOMAINS } from './domains.js';

export interface ClassRuns {
  /** The three class domains. */
  readonly classes: readonly DomainRun[];
  /** The held-back domain: report its figures, never its questions. */
  readonly holdout: readonly DomainRun[];
}

export async function runClassSets(options: { readonly databaseUrl?: string } = {}): Promise<ClassRuns> {
  const runs = await runUnseenSets({ ...options, domains: [...CLASS_DOMAINS, ...HOLDOUT_DOMAINS] });
  const heldBack = new Set(HOLDOUT_DOMAINS.map((domain) => domain.name));
  return {
    classes: runs.filter((run) => !heldBack.has(run.domain.name)),
    holdout: runs.filter((run) => heldBack.has(run.domain.name)),
  };
}
