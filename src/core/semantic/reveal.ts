// Queries against a reveal: its metrics become derived outputs of a query on the reveal's base node.
// A metric defined by `measure` is that measure; one defined by `expr` has its metric references
// inlined (in parentheses) until only measures remain, so the compiler sees arithmetic over aggregates.
import { BadRequestError, NotFoundError } from '../errors.js';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile.js';
import type { Reveal, SemanticModel, SqlPart, SqlTemplate } from './model.js';
import type { SemanticQuery } from './query.js';

export interface RevealQuery {
  readonly reveal: string;
  readonly domain?: string | undefined;
  /** Metric names of the reveal. */
  readonly metrics: readonly string[];
  readonly dimensions: readonly string[];
  readonly filters: SemanticQuery['filters'];
  readonly sorts: SemanticQuery['sorts'];
  readonly limit?: number | undefined;
  readonly timezone?: string | undefined;
}

export function findReveal(model: SemanticModel, name: string, domain?: string): Reveal {
  const reveal = model.reveals.get(name);
  if (!reveal || (domain !== undefined && reveal.domain !== domain)) {
    const names = [...model.reveals.values()].filter((r) => domain === undefined || r.domain === domain).map((r) => r.name);
    const where = domain !== undefined ? ` in domain "${domain}"` : '';
    throw new NotFoundError(`Unknown reveal "${name}"${where}${names.length ? `; reveals: ${names.join(', ')}` : ''}`, 'unknown_reveal');
  }
  return reveal;
}

export function metricTemplate(reveal: Reveal, name: string, seen: ReadonlySet<string> = new Set()): SqlTemplate {
  const metric = reveal.metrics.get(name);
  if (!metric) {
    throw new BadRequestError(`Unknown metric "${name}" in reveal ${reveal.name}; metrics: ${[...reveal.metrics.keys()].join(', ')}`, 'unknown_field');
  }
  if (seen.has(name)) throw new BadRequestError(`Metric ${name} refers to itself`, 'invalid_model');
  if (metric.measure) return [{ kind: 'measure', ...metric.measure }];
  const inner = new Set([...seen, name]);
  return (metric.expr ?? []).flatMap((part): SqlPart[] => {
    if (part.kind !== 'metric') return [part];
    return [{ kind: 'text', text: '(' }, ...metricTemplate(reveal, part.name, inner), { kind: 'text', text: ')' }];
  });
}

/** A reveal query as the query of its base node it compiles to: its metrics, then the caller's extra outputs, as derived outputs. */
export interface RevealNodeQuery {
  readonly reveal: Reveal;
  readonly query: SemanticQuery;
  readonly derived: NonNullable<CompileOptions['derived']>;
}

export function revealNodeQuery(model: SemanticModel, query: RevealQuery, extra: CompileOptions['derived'] = []): RevealNodeQuery {
  const reveal = findReveal(model, query.reveal, query.domain);
  if (query.metrics.length + query.dimensions.length === 0) throw new BadRequestError('A query needs at least one metric or dimension', 'empty_query');
  // Extra outputs the caller asks for (such as the latest time of the rows) follow the metrics.
  const derived = [...query.metrics.map((name) => ({ key: name, template: metricTemplate(reveal, name) })), ...extra];
  const semantic: SemanticQuery = {
    node: reveal.base,
    dimensions: [...query.dimensions],
    measures: [],
    filters: query.filters,
    sorts: query.sorts,
    ...(query.limit !== undefined ? { limit: query.limit } : {}),
    ...(query.timezone !== undefined ? { timezone: query.timezone } : {}),
  };
  return { reveal, query: semantic, derived };
}

export function compileRevealQuery(model: SemanticModel, query: RevealQuery, options: CompileOptions): CompiledQuery & { reveal: Reveal } {
  const { reveal, query: semantic, derived } = revealNodeQuery(model, query, options.derived);
  return { ...compileQuery(model, semantic, { ...options, derived }), reveal };
}
