// The language-model planner: the same plans as the offline planner, chosen by a model served behind
// an OpenAI-compatible base URL (Ollama, llama.cpp, vLLM, LM Studio, OpenAI). The model sees only the
// candidates retrieval picked and answers through one tool whose schema enumerates them. Whenever the
// server or the model lets us down (failure or time-out twice, no tool call, invalid arguments) the
// offline planner answers instead, with a note saying why, so a question never fails for the model.
import OpenAI from 'openai';
import type { CatalogIndex } from './catalog-index.js';
import { retrieveCandidates } from './llm-candidates.js';
import { readPlanArguments } from './llm-plan-arguments.js';
import { PLAN_TOOL, planRequest } from './llm-prompt.js';
import { planOffline, type OfflinePlanOptions } from './offline-planner.js';
import type { AnswerPlan } from './plan.js';

export interface LlmPlannerOptions {
  /** OpenAI-compatible base URL including `/v1`. */
  readonly baseUrl: string;
  /** Local servers need none. */
  readonly apiKey?: string;
  readonly model: string;
  /** Per attempt; default 8000. */
  readonly timeoutMs?: number;
  /** Metrics shown to the model; default 8. */
  readonly maxCandidates?: number;
}

export interface LlmPlanResult {
  readonly plan: AnswerPlan;
  /** `usage.total_tokens` summed over the attempts that got a response. */
  readonly tokensUsed: number;
  readonly via: 'llm' | 'offline';
  /** Why the offline planner answered, for the log. */
  readonly note?: string;
}

export interface LlmPlanner {
  plan(question: string, index: CatalogIndex, planOptions: OfflinePlanOptions): Promise<LlmPlanResult>;
}

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_MAX_CANDIDATES = 8;
const ATTEMPTS = 2;

/** A 4xx other than time-out or rate limit will fail the same way again: not worth the second attempt. */
function worthRetrying(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

function describeError(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (error instanceof OpenAI.APIError && error.status !== undefined) return `HTTP ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}

export function createLlmPlanner(options: LlmPlannerOptions): LlmPlanner {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  // Retries are ours (one, also after a time-out), so the client makes none of its own.
  const client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey ?? 'not-needed', timeout, maxRetries: 0 });

  return {
    async plan(question, index, planOptions) {
      const offline = (note: string, tokensUsed: number): LlmPlanResult => ({ plan: planOffline(question, index, planOptions), tokensUsed, via: 'offline', note });

      const retrieval = retrieveCandidates(question, index, { ...planOptions, maxCandidates });
      if (retrieval.metrics.length === 0) return offline('no candidate metric to offer the model', 0);
      const { messages, tools } = planRequest(question, retrieval);

      let tokensUsed = 0;
      let completion: OpenAI.Chat.Completions.ChatCompletion | undefined;
      const failures: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS && !completion; attempt++) {
        try {
          completion = await client.chat.completions.create({
            model: options.model,
            messages,
            tools: tools as unknown as OpenAI.Chat.Completions.ChatCompletionTool[],
            tool_choice: { type: 'function', function: { name: PLAN_TOOL } },
            temperature: 0,
          });
          tokensUsed += completion.usage?.total_tokens ?? 0;
        } catch (error) {
          failures.push(describeError(error));
          if (!worthRetrying(error)) break;
        }
      }
      if (!completion) return offline(`language model unavailable (${failures.join(', then ')})`, tokensUsed);

      const call = completion.choices[0]?.message.tool_calls?.find((candidate) => candidate.type === 'function' && candidate.function.name === PLAN_TOOL);
      if (!call || call.type !== 'function') return offline(`language model answered without calling ${PLAN_TOOL}`, tokensUsed);
      const read = readPlanArguments(call.function.arguments, retrieval);
      if ('error' in read) return offline(`invalid ${PLAN_TOOL} arguments: ${read.error}`, tokensUsed);
      return { plan: read.plan, tokensUsed, via: 'llm' };
    },
  };
}
