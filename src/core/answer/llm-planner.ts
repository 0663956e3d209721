// The language-model planner: the same plans as the offline planner, chosen by a model served behind
// an OpenAI-compatible base URL (Ollama, llama.cpp, vLLM, LM Studio, OpenAI). The model sees only the
// candidates retrieval picked and answers with one JSON object whose schema enumerates them (a tool
// call where the server supports tools; see llm-client.ts for the degrade steps). Whenever the server
// or the model lets us down (failures, no usable reply, invalid arguments) the offline planner
// answers instead, with a note saying why, so a question never fails for the model.
import type { CatalogIndex } from './catalog-index.js';
import type { LlmClient, OutputMode } from './llm-client.js';
import { retrieveCandidates } from './llm-candidates.js';
import { readPlanArguments } from './llm-plan-arguments.js';
import { PLAN_TOOL, planRequest } from './llm-prompt.js';
import { planOffline, type OfflinePlanOptions } from './offline-planner.js';
import type { AnswerPlan } from './plan.js';

export interface LlmPlannerOptions {
  /** Metrics shown to the model; default 8. */
  readonly maxCandidates?: number;
}

export interface LlmPlanResult {
  readonly plan: AnswerPlan;
  /** `usage.total_tokens` summed over the attempts that got a response. */
  readonly tokensUsed: number;
  readonly via: 'llm' | 'offline';
  /** How the model's reply was read, when it was. */
  readonly mode?: OutputMode;
  /** Why the offline planner answered, or which output modes the server refused, for the log. */
  readonly note?: string;
}

export interface LlmPlanner {
  plan(question: string, index: CatalogIndex, planOptions: OfflinePlanOptions): Promise<LlmPlanResult>;
}

const DEFAULT_MAX_CANDIDATES = 8;

export function createLlmPlanner(client: LlmClient, options: LlmPlannerOptions = {}): LlmPlanner {
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  return {
    async plan(question, index, planOptions) {
      const offline = (note: string, tokensUsed: number): LlmPlanResult => ({ plan: planOffline(question, index, planOptions), tokensUsed, via: 'offline', note });

      const retrieval = retrieveCandidates(question, index, { ...planOptions, maxCandidates });
      if (retrieval.metrics.length === 0) return offline('no candidate metric to offer the model', 0);
      const reply = await client.structured(planRequest(question, retrieval));
      const earlier = reply.notes.length ? `${reply.notes.join('; ')}; ` : '';
      if (!reply.ok) return offline(`${earlier}${reply.reason}`, reply.tokensUsed);
      const read = readPlanArguments(reply.json, retrieval);
      if ('error' in read) return offline(`${earlier}invalid ${PLAN_TOOL} arguments: ${read.error}`, reply.tokensUsed);
      return { plan: read.plan, tokensUsed: reply.tokensUsed, via: 'llm', mode: reply.mode, ...(reply.notes.length ? { note: reply.notes.join('; ') } : {}) };
    },
  };
}
