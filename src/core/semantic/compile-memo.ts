// Compiled queries, kept: a dashboard tile, a polling client or a signal sends the same query again
// and again, and compiling it (fields, joins, templates, the dialect's text) costs more than the rest
// of the request around it. Entries are named by the model object (each gets a serial number when
// first seen), so a deploy (a new model) starts afresh and its predecessor's entries simply age out of
// one memo bounded in bytes for the whole process, however many workspaces it serves.
//
// The key names everything compileQuery reads besides the model: the query, the dialect, the time
// zone, every data-key attribute, and, for filters relative to now ("in the past 7 days"), the quarter
// hour of now (see relativeTimeBucket). Queries with derived columns (reveals) are not kept.
import { LRUCache } from 'lru-cache';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile.js';
import type { SemanticModel } from './model.js';
import type { SemanticQuery } from './query.js';

const QUARTER_HOUR_MS = 15 * 60_000;
const RELATIVE_TO_NOW = /"(?:inThePast|inTheCurrent|notInThePast|notInTheCurrent)"/;
/** The memo's bound: SQL text and keys are most of an entry. */
const MAX_BYTES = 16 * 1024 * 1024;
/** A key longer than this is a query not worth keeping. */
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

let lastModelNumber = 0;
const modelNumbers = new WeakMap<SemanticModel, number>();
const memo = new LRUCache<string, CompiledQuery>({
  maxSize: MAX_BYTES,
  // Two bytes a code unit of text, a rough allowance for the parameters and the object, and as much
  // again as the text for the SQL tree kept until the runnable text is rendered from it (or that text).
  sizeCalculation: (compiled, key) => 2 * key.length + 4 * compiled.sql.length + 64 * compiled.params.length + 256,
});

function modelNumber(model: SemanticModel): number {
  let number = modelNumbers.get(model);
  if (number === undefined) modelNumbers.set(model, (number = ++lastModelNumber));
  return number;
}

/**
 * compileQuery, answered from the memo when the same query was compiled for the same model under the
 * same options. `options.attributes` must be a plain record (its entries are the key). The result is
 * shared between callers: it is frozen, and nobody may change it.
 */
export function compileQueryMemoized(model: SemanticModel, query: SemanticQuery, options: CompileOptions): CompiledQuery {
  if (options.derived?.length) return compileQuery(model, query, options);
  const filters = JSON.stringify(query.filters ?? []);
  const key = JSON.stringify([
    modelNumber(model),
    options.dialect.engine,
    options.timezone ?? null,
    options.defaultLimit ?? null,
    sortedEntries(options.attributes),
    relativeTimeBucket(filters, options.now.getTime()),
    query,
  ]);
  const kept = memo.get(key);
  if (kept) return kept;
  const fresh = compileQuery(model, query, options);
  const compiled = Object.freeze({ ...fresh, params: Object.freeze([...fresh.params]) });
  if (key.length <= MAX_KEY_CHARS) memo.set(key, compiled);
  return compiled;
}

/** What the memo holds (entries, and bytes as sizeCalculation counts them), for tests and metrics. */
export function compileMemoSize(): { entries: number; bytes: number } {
  return { entries: memo.size, bytes: memo.calculatedSize };
}
