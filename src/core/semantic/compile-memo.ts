// Compiled queries, kept per model: a dashboard tile, a polling client or a signal sends the same
// query again and again, and compiling it (fields, joins, templates, the dialect's text) costs more
// than the rest of the request around it. The memo hangs off the model object, so a deploy (a new
// model) starts an empty one and the old one goes with the old model.
//
// The key names everything compileQuery reads besides the model: the query, the dialect, the time
// zone, every data-key attribute, and, for filters relative to now ("in the past 7 days"), the quarter
// hour of now (see relativeTimeBucket). Queries with derived columns (reveals) are not kept.
import { BoundedMemo } from '../bounded-memo.js';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile.js';
import type { SemanticModel } from './model.js';
import type { SemanticQuery } from './query.js';

const QUARTER_HOUR_MS = 15 * 60_000;
const RELATIVE_TO_NOW = /"(inThePast|inTheCurrent)"/;
/** Per model: enough for a workspace's dashboards; a key longer than this is a query not worth keeping. */
const MAX_ENTRIES = 500;
const MAX_KEY_CHARS = 8_000;

/**
 * The quarter hour of `nowMs` when the filters (their JSON) hold a period relative to now, else null.
 * Relative periods are whole days, weeks, months, quarters or years in some time zone, and every such
 * boundary of every zone falls on a quarter hour of UTC: within one, the compiled query is the same.
 */
export function relativeTimeBucket(filtersJson: string, nowMs: number): number | null {
  return RELATIVE_TO_NOW.test(filtersJson) ? Math.floor(nowMs / QUARTER_HOUR_MS) : null;
}

/** A record's entries in a fixed (key) order, so equal records give equal JSON. */
export function sortedEntries(record: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const memos = new WeakMap<SemanticModel, BoundedMemo<CompiledQuery>>();

/**
 * compileQuery, answered from the model's memo when the same query was compiled under the same
 * options. `options.attributes` must be a plain record (its entries are the key). The result is
 * shared between callers: it is frozen, and nobody may change it.
 */
export function compileQueryMemoized(model: SemanticModel, query: SemanticQuery, options: CompileOptions): CompiledQuery {
  if (options.derived?.length) return compileQuery(model, query, options);
  const filters = JSON.stringify(query.filters ?? []);
  const key = JSON.stringify([
    options.dialect.engine,
    options.timezone ?? null,
    options.defaultLimit ?? null,
    sortedEntries(options.attributes),
    relativeTimeBucket(filters, options.now.getTime()),
    query,
  ]);
  let memo = memos.get(model);
  const kept = memo?.get(key);
  if (kept) return kept;
  const fresh = compileQuery(model, query, options);
  const compiled = Object.freeze({ ...fresh, params: Object.freeze([...fresh.params]) });
  if (!memo) memos.set(model, (memo = new BoundedMemo(MAX_ENTRIES, MAX_KEY_CHARS)));
  memo.set(key, compiled);
  return compiled;
}
