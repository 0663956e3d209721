// The question pipeline of surface A: period (resolved on the server) → plan (offline planner) →
// SQL through the semantic compiler with the asker's data keys → rows → English prose, provenance and
// usage. Nothing numeric comes from a planner: every number is read from the warehouse.
import { createHash } from 'node:crypto';
import type { Principal } from '../identity/principal.js';
import { createLlmPlanner, type LlmPlanner } from '../core/answer/llm-planner.js';
import { buildCatalogIndex, planOffline, type CatalogIndex } from '../core/answer/offline-planner.js';
import { findPeriod } from '../core/answer/periods.js';
import type { GovernedPlan, ResolvedPeriod } from '../core/answer/plan.js';
import { answerProse, noMatchProse } from '../core/answer/prose.js';
import { BadRequestError } from '../core/errors.js';
import { compileRevealQuery } from '../core/semantic/reveal.js';
import { compileQuery } from '../core/semantic/compile.js';
import type { Reveal, SemanticModel, SqlTemplate } from '../core/semantic/model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import { MODEL_CONNECTION, type ConnectionService } from '../connections/connection-service.js';
import type { LiveModel, ModelService } from '../modeling/model-service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';

export const MAX_QUESTION_LENGTH = 2000;
/** When a question names no period: the last 30 complete days (and never high confidence). */
const DEFAULT_PERIOD_PHRASE = 'last 30 days';
const FRESHNESS = '__freshness';
const QUERY_TIMEOUT_MS = 30_000;
const MAX_ROWS = 1000;

export interface Answer {
  answer: string;
  data: { rows: Record<string, unknown>[]; columns: string[]; metric?: string; value?: number; period?: string };
  provenance: {
    source: 'semantic layer' | 'raw SQL';
    reveal?: string;
    reveal_backed: boolean;
    freshness: string | null;
    confidence: 'high' | 'medium';
  };
  usage: { tokens_used: number; latency_ms: number };
  /** Only when nothing governed answers: why, and what comes closest. */
  no_match?: { reason: string; closest: Array<{ reveal: string; metric: string; label: string }> };
}

export class AnswerService {
  private readonly indexes = new WeakMap<SemanticModel, CatalogIndex>();
  private readonly values = new Map<string, Promise<Map<string, string[]>>>();
  private readonly llm: LlmPlanner | undefined;

  constructor(
    private readonly models: ModelService,
    private readonly connections: ConnectionService,
    private readonly clock: Clock,
    llm: Config['llm'],
    /** Told why a language model's plan was not used (the offline planner answered instead). */
    private readonly onFallback: (note: string) => void = () => {},
  ) {
    this.llm = llm ? createLlmPlanner({ baseUrl: llm.baseUrl, model: llm.model, ...(llm.apiKey ? { apiKey: llm.apiKey } : {}) }) : undefined;
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
    const planned = this.llm
      ? await this.llm.plan(text, this.index(live.model), planOptions)
      : { plan: planOffline(text, this.index(live.model), planOptions), tokensUsed: 0, via: 'offline' as const, note: undefined };
    if (this.llm && planned.note) this.onFallback(planned.note);
    const { plan } = planned;
    const usage = () => ({ tokens_used: planned.tokensUsed, latency_ms: Math.round(performance.now() - started) });
    if (plan.kind === 'no_match') {
      return {
        answer: noMatchProse(plan.reason, plan.closest),
        data: { rows: [], columns: [] },
        provenance: { source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium' },
        usage: usage(),
        no_match: { reason: plan.reason, closest: [...plan.closest] },
      };
    }
    const result = await this.run(principal, live, plan, period);
    return { ...result, usage: usage(), ...(asked ? {} : { provenance: { ...result.provenance, confidence: 'medium' as const } }) };
  }

  private async run(principal: Principal, live: LiveModel, plan: GovernedPlan, period: ResolvedPeriod): Promise<Omit<Answer, 'usage'>> {
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
    const rows = [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: MAX_ROWS, timeoutMs: QUERY_TIMEOUT_MS })).rows];
    let totals = rows[0];
    if (plan.dimensions.length) {
      const whole = compileRevealQuery(live.model, query([], false), options);
      totals = (await warehouse.run(whole.sql, whole.params, { maxRows: 1, timeoutMs: QUERY_TIMEOUT_MS })).rows[0];
    }
    const latest = rows.map((r) => r[FRESHNESS]).filter((v): v is string => typeof v === 'string').sort().at(-1);
    const headline = reveal.metrics.get(plan.metrics[0]!)!;
    const visibleRows = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== FRESHNESS)));
    const value = totals?.[headline.name];

    const answer = answerProse({
      metricLabel: headline.label,
      unit: headline.unit,
      period,
      total: value,
      ...(plan.dimensions.length ? { dimensionLabel: plan.dimensions.map((d) => d.split('.').at(-1)!.replaceAll('_', ' ')).join(' and ') } : {}),
      breakdown: plan.dimensions.length ? visibleRows.map((row) => ({ label: plan.dimensions.map((d) => String(row[d] ?? '')).join(' / '), value: row[headline.name] })) : [],
      others: plan.dimensions.length
        ? []
        : plan.metrics.slice(1).map((name) => ({ label: reveal.metrics.get(name)!.label, unit: reveal.metrics.get(name)!.unit, value: totals?.[name] })),
    });
    const governedByName = plan.matchedBy !== 'description';
    return {
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
        freshness: latest ? latest.slice(0, 10) : null,
        confidence: governedByName && rows.length > 0 ? 'high' : 'medium',
      },
    };
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
