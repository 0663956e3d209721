// Asks the class sets and the held-back domain through the real answer pipeline, exactly as the
// unseen sets are asked (unseen/harness.ts: offline planner, DuckDB warehouses, deployed models, a
// luminary who sees every row, now fixed at UNSEEN_NOW), in one run, and hands back the two apart.
// Then, apart, the class sets' questions in other languages again with a language model configured
// that translates them with their reference English and fails every other request.
import { HOLDOUT_DOMAINS } from '../classes-holdout/domains.js';
import { runUnseenSets, type DomainRun } from '../unseen/harness.js';
import { CLASS_DOMAINS } from './domains.js';
import { startTranslationServer } from './translation-server.js';

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

/**
 * The class sets' questions in other languages, asked with a loopback language model that answers
 * translation requests with each question's reference English and every other request with HTTP 500
 * (translation-server.ts). The held-back domain has no reference translations and is not asked here.
 */
export async function runForeignWithTranslation(options: { readonly databaseUrl?: string; readonly onNote?: (note: string) => void } = {}): Promise<DomainRun[]> {
  const domains = CLASS_DOMAINS.map((domain) => ({ ...domain, questions: domain.questions.filter((q) => q.lang !== 'en') }));
  const server = await startTranslationServer(domains.flatMap((domain) => domain.questions));
  try {
    return await runUnseenSets({ ...options, domains, llmBaseUrl: server.baseUrl });
  } finally {
    await server.close();
  }
}
