// The question pipeline of surface A: period (resolved on the server) → plan (offline planner, or a
// language model when one is configured) → SQL through the semantic compiler with the asker's data
// keys → rows → English prose, provenance and usage. Nothing numeric comes from a planner: every number
// is read from the warehouse. With no governed match, a tracer (or above) may be answered by the
// raw-SQL fallback; everyone else, and every fallback failure, gets the honest "no governed match".
import type { Principal } from '../identity/principal.js';
import { LlmClient } from '../core/answer/llm-client.js';
import { createLlmPlanner, type LlmPlanner } from '../core/answer/llm-planner.js';
import { checkProse, PROSE_MAX_TOKENS, proseRequest, warmUpProseCheck, type ProseFacts } from '../core/answer/llm-prose.js';
import { buildCatalogIndex, planOffline, type CatalogIndex } from '../core/answer/offline-planner.js';
import { readComparison } from '../core/answer/compared-periods.js';
import { findPeriod } from '../core/answer/periods.js';
import { asksAsOfNow, valueNamesYear, withoutPeriodPhrase } from '../core/answer/time-bounds.js';
import type { NoMatch, ResolvedPeriod } from '../core/answer/plan.js';
import { BadRequestError } from '../core/errors.js';
import type { Reveal, SemanticModel } from '../core/semantic/model.js';
import type { ConnectionService } from '../connections/connection-service.js';
import type { SchemaCache } from '../connections/schema-cache.js';
import type { LiveModel, ModelService } from '../modeling/model-service.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import type { RawSqlService } from '../querying/raw-sql-service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { noMatchAnswer, type Answer } from './answer.js';
import { decideCoverage } from './coverage.js';
import { answerGoverned } from './governed-answer.js';
import { gatePlan } from './plan-gates.js';
import { questionInEnglish } from './question-in-english.js';
import { mayUseSqlFallback, SqlFallback } from './sql-fallback-runner.js';
import { DEFAULT_VALUE_OPTIONS, ValueCatalog, type ValueCatalogOptions } from './value-catalog.js';

export type { Answer } from './answer.js';

export const MAX_QUESTION_LENGTH = 2000;
/** When a question about a flow names no period: the last 30 complete days (an assumption the answer states). */
const DEFAULT_PERIOD_PHRASE = 'last 30 days';
const NO_MODEL_REASON = 'No model is deployed in this workspace yet, so there are no governed metrics to answer from.';

export interface AnswerServiceDeps {
  readonly models: ModelService;
  readonly connections: ConnectionService;
  readonly rawSql: RawSqlService;
  readonly governed: GovernedQueryService;
  readonly schemas: SchemaCache;
  readonly clock: Clock;
  readonly llm: Config['llm'];
  /** Told why a language model's work was not used (the offline planner, the template or "no match" answered instead). */
  readonly onNote?: (note: string) => void;
  /** How value indexes are sized and refreshed; defaults in DEFAULT_VALUE_OPTIONS. */
  readonly values?: Partial<Omit<ValueCatalogOptions, 'onError'>>;
  /** Told when a value index could not be built (the question is planned without its values). */
  readonly onBackgroundError?: (error: unknown) => void;
}

/** The language-model parts, present only when a server is configured. */
interface LanguageModel {
  readonly planner: LlmPlanner;
  readonly client: LlmClient;
  readonly fallback: SqlFallback;
  readonly prose: boolean;
}

export class AnswerService {
  private readonly indexes = new WeakMap<SemanticModel, CatalogIndex>();
  /** Distinct values of string dimensions per data-key scope, for the planner to recognise "Europe" or "web". */
  readonly values: ValueCatalog;
  private readonly llm: LanguageModel | undefined;
  private readonly models: ModelService;
  private readonly governed: GovernedQueryService;
  private readonly clock: Clock;
  private readonly onNote: (note: string) => void;

  constructor(deps: AnswerServiceDeps) {
    this.models = deps.models;
    this.governed = deps.governed;
    this.clock = deps.clock;
    this.onNote = deps.onNote ?? (() => {});
    const onBackgroundError = deps.onBackgroundError ?? (() => {});
    this.values = new ValueCatalog(deps.connections, deps.clock, {
      ...DEFAULT_VALUE_OPTIONS,
      ...deps.values,
      onError: (error, context) => onBackgroundError(new Error(`Could not read the ${context}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
    });
    if (deps.llm) {
      const client = new LlmClient({ baseUrl: deps.llm.baseUrl, model: deps.llm.model, ...(deps.llm.apiKey ? { apiKey: deps.llm.apiKey } : {}) });
      this.llm = { client, planner: createLlmPlanner(client), fallback: new SqlFallback(client, deps.connections, deps.rawSql, deps.schemas), prose: deps.llm.prose };
      if (deps.llm.prose) warmUpProseCheck();
    }
  }

  async ask(principal: Principal, question: string, domain: string | undefined): Promise<Answer> {
    return (await this.askShowingSql(principal, question, domain)).answer;
  }

  /**
   * The answer, and for a governed one the SQL its queries ran (compiled with the asker's data keys), which
   * the console shows on demand; surface A's answer does not carry it.
   */
  async askShowingSql(principal: Principal, typed: string, domain: string | undefined): Promise<{ answer: Answer; sql?: string[] }> {
    const plainAnswer = (a: Answer) => ({ answer: a });
    const started = performance.now();
    const live = await this.models.live(principal.workspace.id);
    const domains = [...new Set([...live.model.reveals.values()].map((r) => r.domain))].sort();
    if (domain !== undefined && !domains.includes(domain)) {
      throw new BadRequestError(`Unknown domain "${domain}"; domains: ${domains.join(', ') || 'none (no model deployed)'}`, 'unknown_domain');
    }
    let tokensUsed = 0;
    const usage = () => ({ tokens_used: tokensUsed, latency_ms: Math.round(performance.now() - started) });
    // Nothing to plan against, and no connection a fallback could read: say so before any planner runs.
    if (live.model.reveals.size === 0) return plainAnswer({ ...noMatchAnswer(NO_MODEL_REASON, []), usage: usage() });

    const now = this.clock.now();
    const timezone = principal.workspace.timezone;
    // Another language: the pipeline reads the question's English (translated, or read with the word list).
    const english = await questionInEnglish(typed, { model: live.model, index: this.index(live.model), now, timezone, client: this.llm?.client, onNote: this.onNote });
    tokensUsed += english.tokensUsed;
    const question = english.text;
    const index = this.index(live.model);
    const candidates = [...live.model.reveals.values()].filter((r) => domain === undefined || r.domain === domain);
    const lookup = await this.values.lookups(principal.workspace.id, live, index, principal.attributes, candidates);
    // "2024 than 2023", "growth last month": two periods, the current one covering the answer. A cue
    // word the catalog or its values use ("Salary increase", a reason 'growth') is not one.
    const isCatalogWord = (stem: string) => index.vocabulary.has(stem) || candidates.some((reveal) => lookup(reveal.name)?.hasStem(stem) === true);
    const comparison = readComparison(question, { now, timezone, isCatalogWord });
    const asked = comparison ? comparison.current : findPeriod(question, { now, timezone });
    const text = comparison ? comparison.text : asked ? withoutPeriodPhrase(question, asked.phrase) : question;

    const planOptions = { ...(domain !== undefined ? { domain } : {}), lookup };
    const planned = this.llm ? await this.llm.planner.plan(text, index, planOptions) : { plan: planOffline(text, index, planOptions), tokensUsed: 0, via: 'offline', note: undefined };
    if (planned.note) this.onNote(`Question planned ${planned.via === 'llm' ? 'by the language model' : 'offline'}: ${planned.note}`);
    tokensUsed += planned.tokensUsed;
    const gated = planned.plan.kind === 'governed' ? gatePlan(comparison ? { ...planned.plan, compare: true } : planned.plan, question, live.model) : undefined;
    const plan = gated?.kind === 'declined' ? gated.noMatch : gated?.kind === 'pass' ? gated.plan : planned.plan;
    if (plan.kind === 'no_match') {
      const fallback = await this.trySqlFallback(principal, live, question, asked, plan);
      tokensUsed += fallback.tokensUsed;
      if (fallback.ok) return plainAnswer({ ...fallback.answer, usage: usage() });
      const restated = english.restate(plan, (stem) => candidates.some((reveal) => lookup(reveal.name)?.hasStem(stem) ?? false));
      const reason = fallback.reason ? `${restated.reason.replace(/\.$/, '')}; ${fallback.reason}` : restated.reason;
      return plainAnswer({ ...noMatchAnswer(reason, plan.closest, restated.suggestions), usage: usage() });
    }
    const reveal = live.model.reveals.get(plan.reveal)!;
    // "right now", or a filter value naming a year ("the 2023/24 season"): the question bounds time itself.
    const timeBounded = asksAsOfNow(text) || plan.filters.some((filter) => valueNamesYear(filter.value));
    const fallback = findPeriod(DEFAULT_PERIOD_PHRASE, { now, timezone })!;
    const decision = decideCoverage(plan, reveal, { asked, fallback, timeBounded, timeLabel: timeLabel(live.model, reveal) });
    if (decision.kind === 'refused') return plainAnswer({ ...noMatchAnswer(english.restate(decision).reason, decision.closest), usage: usage() });
    const assumptions = [...english.assumptions, ...decision.assumptions];
    const { result, facts, sql } = await answerGoverned(this.governed, { principal, live, plan, coverage: decision.coverage, assumptions, now, ...(comparison ? { comparison } : {}) });
    if (this.llm?.prose) {
      const written = await this.llmProse({ question, ...facts });
      tokensUsed += written.tokensUsed;
      if (written.text) result.answer = written.text;
    }
    return { answer: { ...result, usage: usage() }, sql };
  }

  /**
   * With no governed match, a language model may answer with raw SQL for askers allowed raw SQL. The
   * connection is the one the closest governed metrics read. `reason` is empty when the fallback was
   * not attempted (no model, or the asker may not use raw SQL): the asker is told only what they may know.
   */
  private async trySqlFallback(principal: Principal, live: LiveModel, question: string, asked: ResolvedPeriod | undefined, plan: NoMatch) {
    if (!this.llm || !mayUseSqlFallback(principal)) return { ok: false as const, reason: '', tokensUsed: 0 };
    const reveal = live.model.reveals.get(plan.closest[0]?.reveal ?? '') ?? live.model.reveals.values().next().value;
    const connection = reveal ? live.model.nodes.get(reveal.base)?.connection : undefined;
    if (!connection) return { ok: false as const, reason: 'there is no warehouse connection to query', tokensUsed: 0 };
    const outcome = await this.llm.fallback.answer({ principal, question, period: asked, connection });
    if (!outcome.ok) this.onNote(`SQL fallback did not answer: ${outcome.reason}`);
    return outcome;
  }

  /** The model's wording of the answer, used only if it passes checkProse; else the template stands. */
  private async llmProse(facts: ProseFacts): Promise<{ text?: string; tokensUsed: number }> {
    const { system, user } = proseRequest(facts);
    const reply = await this.llm!.client.text(system, user, PROSE_MAX_TOKENS);
    if (!reply.ok) {
      this.onNote(`Templated prose used: ${reply.reason}`);
      return { tokensUsed: reply.tokensUsed };
    }
    const check = await checkProse(reply.text, facts);
    if (!check.ok) {
      this.onNote(`Templated prose used: ${check.reason}`);
      return { tokensUsed: reply.tokensUsed };
    }
    return { text: reply.text, tokensUsed: reply.tokensUsed };
  }

  private index(model: SemanticModel): CatalogIndex {
    let index = this.indexes.get(model);
    if (!index) this.indexes.set(model, (index = buildCatalogIndex(model)));
    return index;
  }

  /** After a deploy: the new model's common value indexes start building; the deploy does not wait. */
  modelDeployed(workspaceId: string): void {
    void this.models
      .live(workspaceId)
      .then((live) => this.values.prepare(workspaceId, live, this.index(live.model)))
      .catch(() => {}); // the next question loads the model again and builds what it needs
  }

  /** Waits for value index builds under way (see ValueCatalog.close). */
  close(): Promise<void> {
    return this.values.close();
  }
}

/** The label of the reveal's time dimension ("Signed up at"), which a named period filters. */
function timeLabel(model: SemanticModel, reveal: Reveal): string | undefined {
  return reveal.time ? model.nodes.get(reveal.time.node)?.dimensions.get(reveal.time.dimension)?.label : undefined;
}
