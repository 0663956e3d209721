// The compile step of the governed path: the node a request reads (404 for one the live model does not
// have), and the request compiled for the principal's compile options. Node queries go through the
// compile memo (a dashboard, a polling client or a signal sends the same one again and again); reveal
// queries compile afresh (their derived outputs are not kept by the memo anyway).
// A step that fails is given to the request's own verdict first (see onCompileError).
import { NotFoundError } from '../core/errors.js';
import type { CompileOptions, CompiledQuery } from '../core/semantic/compile.js';
import { compileQueryMemoized } from '../core/semantic/compile-memo.js';
import type { Reveal, SemanticModel, SemanticNode } from '../core/semantic/model.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import { compileRevealQuery, findReveal, revealNodeQuery } from '../core/semantic/reveal.js';
import type { LiveModel } from '../modeling/model-service.js';
import type { GovernedQueryRequest, SemanticRequest } from './governed-query.js';

/** The node `request` reads from: the node it names, or its reveal's base. */
export function baseNodeOf(model: SemanticModel, request: SemanticRequest): SemanticNode {
  const name = request.kind === 'node' ? request.query.node : findReveal(model, request.query.reveal, request.query.domain).base;
  const node = model.nodes.get(name);
  if (!node) throw new NotFoundError(`Unknown node "${name}"`, 'unknown_node');
  return node;
}

export function compileRequest(model: SemanticModel, request: SemanticRequest, options: CompileOptions): CompiledQuery & { reveal?: Reveal } {
  if (request.kind === 'node') return compileQueryMemoized(model, request.query, options);
  return compileRevealQuery(model, request.query, { ...options, ...(request.now ? { now: request.now } : {}), ...(request.derived ? { derived: request.derived } : {}) });
}

/**
 * The node query a request is answered as, for rollup routing: a node query as it is; a reveal query as
 * the query of its base node with its metrics and extra outputs derived (the same mapping it compiles by).
 */
export function nodeQueryOf(model: SemanticModel, request: SemanticRequest, now: Date): { query: SemanticQuery; derived?: CompileOptions['derived']; now: Date } {
  if (request.kind === 'node') return { query: request.query, now };
  const { query, derived } = revealNodeQuery(model, request.query, request.derived);
  return { query, derived, now: request.now ?? now };
}

/** Runs a compile step, letting the request's owner give its own verdict on a failure (see onCompileError). */
export function compiling<T>(request: Pick<GovernedQueryRequest, 'onCompileError'>, live: LiveModel, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw (error instanceof Error && request.onCompileError?.(error, live.model)) || error;
  }
}
