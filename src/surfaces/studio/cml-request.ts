// The CML builder's request on the governed path: a reveal query as it is, or, with a comparison, a
// percent of total or a ratio, the same question asked of the reveal's base node with each metric as
// its measure (core/semantic/reveal-composed.ts), answered under the metrics' names. Either way the
// answer says which node the reveal's fields belong to and its time dimension, where the builder finds
// the fields a filter or a comparison may name.
import type { ResultColumn } from '../../core/semantic/composed-plan.js';
import type { Reveal } from '../../core/semantic/model.js';
import { findReveal } from '../../core/semantic/reveal.js';
import { isComposedRevealQuery, revealAsNodeQuery, type ComposedRevealQuery } from '../../core/semantic/reveal-composed.js';
import type { Principal } from '../../identity/principal.js';
import type { LiveModel } from '../../modeling/model-service.js';
import type { SemanticRequest } from '../../querying/governed-query.js';
import type { Services } from '../../services.js';

export interface CmlRequest {
  readonly live: LiveModel;
  readonly reveal: Reveal;
  /** The reveal's time dimension, as a field of its base node (`created_at`, `customers.signup_at`); null without one. */
  readonly time: string | null;
  readonly query: SemanticRequest;
  column(column: ResultColumn): ResultColumn;
  row(row: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

export async function cmlRequest(services: Services, principal: Principal, query: ComposedRevealQuery): Promise<CmlRequest> {
  const live = await services.governed.live(principal);
  const composed = isComposedRevealQuery(query) ? revealAsNodeQuery(live.model, query) : undefined;
  const reveal = composed?.reveal ?? findReveal(live.model, query.reveal, query.domain);
  const time = reveal.time ? (reveal.time.node === reveal.base && reveal.time.role === undefined ? reveal.time.dimension : `${reveal.time.role ?? reveal.time.node}.${reveal.time.dimension}`) : null;
  if (!composed) return { live, reveal, time, query: { kind: 'reveal', query }, column: (c) => c, row: (r) => ({ ...r }) };
  return { live, reveal, time, query: { kind: 'node', query: composed.query }, column: composed.column, row: composed.row };
}
