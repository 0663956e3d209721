// The question pipeline of surface A: period (resolved on the server) → plan (offline planner, or a
// language model when one is configured) → SQL through the semantic compiler with the asker's data
// keys → rows → English prose, provenance and usage. Nothing numeric comes from a planner: every number
// is read from the warehouse. With no governed match, a tracer (or above) may be answered by the
// raw-SQL fallback; everyone else, and every fallback failure, gets the honest "no governed match".
import { createHash } from 'node:crypto';
import type { Principal } from '../identity/principal.js';
import { LlmClient } from '../core/answer/llm-client.js';
import { createLlmPlanner, type LlmPlanner } from '../core/answer/llm-planner.js';
import { checkProse, PROSE_MAX_TOKENS, proseRequest, warmUpProseCheck, type ProseFacts } from '../core/answer/llm-prose.js';
import { buildCatalogIndex, planOffline, type CatalogIndex } from '../core/answer/offline-planner.js';
import { findPeriod } from '../core/answer/periods.js';
import type { GovernedPlan, NoMatch, ResolvedPeriod } from '../core/answer/plan.js';
import { answerProse, formatValue, noMatchProse } from '../core/answer/prose.js';
import { BadRequestError } from '../core/errors.js';
import { compileRevealQuery } from '../core/semantic/reveal.js';
import { compileQuery } from '../core/semantic/compile.js';
import type { Reveal, SemanticModel, SqlTemplate } from '../core/semantic/model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import { MODEL_CONNECTION, type ConnectionService } from '../connections/connection-service.js';
import type { SchemaCache } from '../connections/schema-cache.js';
import type { LiveModel, ModelService } from '../modeling/model-service.js';
import type { RawSqlService } from '../querying/raw-sql-service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Answer } from './answer.js';
import { freshnessDate } from './freshness.js';
import { mayUseSqlFallback, SqlFallback } from './sql-fallback-runner.js';

export type { Answer } from './answer.js';

export const MAX_QUESTION_LENGTH = 2000;
/** When a question names no period: the last 30 complete days (and never high confidence). */
const DEFAULT_PERIOD_PHRASE = 'last 30 days';
const FRESHNESS = '__freshness';
const QUERY_TIMEOUT_MS = 30_000;
const MAX_ROWS = 1000;

export interface AnswerServiceDeps {
  readonly models: ModelService;
  readonly connections: ConnectionService;
  readonly rawSql: RawSqlService;
  readonly schemas: SchemaCache;
  readonly clock: Clock;
  readonly llm: Config['llm'];
  /** Told why a language model's work was not used (the offline planner, the template or "no match" answered instead). */
  readonly onNote?: (note: string) => void;
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
  private readonly values = new Map<string, Promise<Map<string, string[]>>>();
  private readonly llm: LanguageModel | undefined;
  private readonly models: ModelService;
  private readonly connections: ConnectionService;
  private readonly clock: Clock;
  private readonly onNote: (note: string) => void;

  constructor(deps: AnswerServiceDeps) {
    this.models = deps.models;
    this.connections = deps.connections;
    this.clock = deps.clock;
    this.onNote = deps.onNote ?? (() => {});
    if (deps.llm) {
      const client = new LlmClient({ baseUrl: deps.llm.baseUrl, model: deps.llm.model, ...(deps.llm.apiKey ? { apiKey: deps.llm.apiKey } : {}) });
      this.llm = { client, planner: createLlmPlanner(client), fallback: new SqlFallback(client, deps.connections, deps.rawSql, deps.schemas), prose: deps.llm.prose };
      if (deps.llm.prose) warmUpProseCheck();
    }
  }

  async ask(principal: Principal, question: string, domain: string | undefined): Promise<Answer> {
    const started = performance.now();
    const live = await this.models.live(principal.workspace.id);
    const domains = [...new Set([...live.model.reveals.values()].map((r) => r.domain))].sort();
    if (domain !== undefined && !domains.includes(domain)) {
      throw new BadRequestError(`Unknown domain "${domain}"; domains: ${domains.join(', ') || 'none (no model deployed)'}`, 'unknown_domain');
    }
    const now = this.clock.now();
    const timezone = principal.workspace.timezone;
    const asked = findPeriod(question, { now, timezone });
    const period = asked ?? findPeriod(DEFAULT_PERIOD_PHRASE, { now, timezone })!;
    const text = asked ? question.replace(asked.phrase, ' ') : question;

    const candidates = [...live.model.reveals.values()].filter((r) => domain === undefined || r.domain === domain);
    const values = new Map(await Promise.all(candidates.map(async (r) => [r.name, await this.cachedValues(principal, live, r)] as const)));
    const planOptions = { ...(domain !== undefined ? { domain } : {}), values: (reveal: string) => values.get(reveal) ?? new Map<string, string[]>() };
    const index = this.index(live.model);
    const planned = this.llm ? await this.llm.planner.plan(text, index, planOptions) : { plan: planOffline(text, index, planOptions), tokensUsed: 0, via: 'offline', note: undefined };
    if (planned.note) this.onNote(`Question planned ${planned.via === 'llm' ? 'by the language model' : 'offline'}: ${planned.note}`);
    let tokensUsed = planned.tokensUsed;
    const usage = () => ({ tokens_used: tokensUsed, latency_ms: Math.round(performance.now() - started) });
    const { plan } = planned;
    if (plan.kind === 'no_match') {
      const fallback = await this.trySqlFallback(principal, live, question, asked, plan);
      tokensUsed += fallback.tokensUsed;
      if (fallback.ok) return { ...fallback.answer, usage: usage() };
      const reason = fallback.reason ? `${plan.reason.replace(/\.$/, '')}; ${fallback.reason}` : plan.reason;
      return {
        answer: noMatchProse(reason, plan.closest),
        data: { rows: [], columns: [] },
        provenance: { source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium' },
        usage: usage(),
        no_match: { reason, closest: [...plan.closest] },
      };
    }
    const { result, facts } = await this.run(principal, live, plan, period);
    if (this.llm?.prose) {
      const written = await this.llmProse({ question, ...facts });
      tokensUsed += written.tokensUsed;
      if (written.text) result.answer = written.text;
    }
    return { ...result, usage: usage(), ...(asked ? {} : { provenance: { ...result.provenance, confidence: 'medium' as const } }) };
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

  private async run(principal: Principal, live: LiveModel, plan: GovernedPlan, period: ResolvedPeriod): Promise<{ result: Omit<Answer, 'usage'>; facts: Omit<ProseFacts, 'question'> }> {
    const reveal = live.model.reveals.get(plan.reveal)!;
    const base = live.model.nodes.get(reveal.base)!;
    const { connection, warehouse } = await this.connections.warehouse(principal.workspace.id, base.connection, MODEL_CONNECTION);
    const options = { dialect: DIALECTS[connection.engine], attributes: principal.attributes, now: this.clock.now(), timezone: principal.workspace.timezone };
    const time = reveal.time ? (reveal.time.node === reveal.base ? reveal.time.dimension : `${reveal.time.node}.${reveal.time.dimension}`) : undefined;
    const periodFilters = time
      ? [
          { field: time, operator: 'onOrAfter', value: period.start },
          { field: time, operator: 'before', value: period.end },
        ]
      : [];
    const query = (dimensions: readonly string[], withSort: boolean) => ({
      reveal: plan.reveal,
      metrics: plan.metrics,
      dimensions,
      filters: [...plan.filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value as string | string[] })), ...periodFilters],
      sorts: withSort && plan.sort ? [plan.sort] : [],
      limit: withSort ? (plan.limit ?? MAX_ROWS) : MAX_ROWS,
    });
    const freshness = time ? [{ key: FRESHNESS, template: latestOf(reveal, time) }] : [];

    const compiled = compileRevealQuery(live.model, query(plan.dimensions, true), { ...options, derived: freshness });
    const rows = [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: MAX_ROWS, timeoutMs: QUERY_TIMEOUT_MS, timeZone: compiled.timezone })).rows];
    let totals = rows[0];
    if (plan.dimensions.length) {
      const whole = compileRevealQuery(live.model, query([], false), options);
      totals = (await warehouse.run(whole.sql, whole.params, { maxRows: 1, timeoutMs: QUERY_TIMEOUT_MS, timeZone: whole.timezone })).rows[0];
    }
    const latest = rows
      .map((r) => freshnessDate(r[FRESHNESS], principal.workspace.timezone))
      .filter((date): date is string => date !== null)
      .sort()
      .at(-1);
    const headline = reveal.metrics.get(plan.metrics[0]!)!;
    const visibleRows = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== FRESHNESS)));
    const value = totals?.[headline.name];

    const dimensionLabel = plan.dimensions.map((d) => d.split('.').at(-1)!.replaceAll('_', ' ')).join(' and ');
    const breakdown = plan.dimensions.length ? visibleRows.map((row) => ({ label: plan.dimensions.map((d) => String(row[d] ?? '')).join(' / '), value: row[headline.name] })) : [];
    const others = plan.dimensions.length ? [] : plan.metrics.slice(1).map((name) => ({ label: reveal.metrics.get(name)!.label, unit: reveal.metrics.get(name)!.unit, value: totals?.[name] }));
    const answer = answerProse({ metricLabel: headline.label, unit: headline.unit, period, total: value, ...(plan.dimensions.length ? { dimensionLabel } : {}), breakdown, others });
    const governedByName = plan.matchedBy !== 'description';
    const result: Omit<Answer, 'usage'> = {
      answer,
      data: {
        rows: visibleRows,
        columns: compiled.columns.map((c) => c.key).filter((k) => k !== FRESHNESS),
        metric: headline.name,
        ...(typeof value === 'number' ? { value } : {}),
        period: period.token,
      },
      provenance: {
        source: 'semantic layer',
        reveal: reveal.name,
        reveal_backed: true,
        freshness: latest ?? null,
        confidence: governedByName && rows.length > 0 ? 'high' : 'medium',
      },
    };
    // What a language model may reword: the template and every row, formatted as the template formats them.
    const rowFacts = [
      ...breakdown.map((row) => `${row.label || '(none)'}: ${formatValue(row.value, headline.unit)}`),
      ...others.map((other) => `${other.label}: ${formatValue(other.value, other.unit)}`),
    ];
    return { result, facts: { template: answer, rows: rowFacts } };
  }

  private index(model: SemanticModel): CatalogIndex {
    let index = this.indexes.get(model);
    if (!index) this.indexes.set(model, (index = buildCatalogIndex(model)));
    return index;
  }

  /**
   * Distinct values of the reveal's string dimensions, as the asker may see them (data keys apply),
   * so the planner can recognise "Europe" or "web" in a question. Cached per model version and
   * attributes: only the first question pays for the lookups.
   */
  private cachedValues(principal: Principal, live: LiveModel, reveal: Reveal): Promise<Map<string, string[]>> {
    const key = valuesKey(principal, live, reveal.name);
    let entry = this.values.get(key);
    if (!entry) {
      if (this.values.size >= 500) this.values.delete(this.values.keys().next().value!);
      entry = this.loadValues(principal, live, reveal);
      this.values.set(key, entry);
      entry.catch(() => this.values.delete(key)); // retried by the next question
    }
    return entry;
  }

  private async loadValues(principal: Principal, live: LiveModel, reveal: Reveal): Promise<Map<string, string[]>> {
    const base = live.model.nodes.get(reveal.base)!;
    const { connection, warehouse } = await this.connections.warehouse(principal.workspace.id, base.connection, MODEL_CONNECTION);
    const found = new Map<string, string[]>();
    for (const dimension of base.dimensions.values()) {
      if (dimension.type !== 'string' || dimension.hidden) continue;
      const compiled = compileQuery(
        live.model,
        { node: base.name, dimensions: [dimension.name], measures: [], filters: [], sorts: [], limit: 200 },
        { dialect: DIALECTS[connection.engine], attributes: principal.attributes, now: this.clock.now() },
      );
      const rows = (await warehouse.run(compiled.sql, compiled.params, { maxRows: 200, timeoutMs: QUERY_TIMEOUT_MS })).rows;
      found.set(dimension.name, rows.map((r) => r[dimension.name]).filter((v): v is string => typeof v === 'string'));
    }
    return found;
  }
}

function valuesKey(principal: Principal, live: LiveModel, reveal: string): string {
  const attributes = createHash('sha256').update(JSON.stringify(principal.attributes)).digest('hex').slice(0, 16);
  return `${principal.workspace.id}:${live.version}:${reveal}:${attributes}`;
}

/** MAX of the reveal's time dimension, computed in the same query as the metrics. */
function latestOf(reveal: Reveal, time: string): SqlTemplate {
  const [node, name] = time.includes('.') ? time.split('.') : [reveal.base, time];
  return [{ kind: 'text', text: 'MAX(' }, { kind: 'dimension', node: node!, name: name! }, { kind: 'text', text: ')' }];
}
