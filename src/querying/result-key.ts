// The cache key of a governed query's result, computed before the query is compiled, so that a hit
// costs neither compilation nor the connection's driver. It names everything the result depends on, so
// that a hit never crosses:
// - workspaces (the workspace id),
// - users who see different rows (their data-key attributes, every one of them, in a fixed order),
// - model deployments (the live model's version, which every deploy moves on),
// - connection changes (the connection's id and when it was last saved: a new host, database, user or
//   password is a new key),
// - time zones (the workspace's; the request's own is part of the request),
// - row caps (the most rows kept),
// - rollup builds, for a node with rollups (the workspace's rollups generation, which every build record
//   written moves: an answer read from a rollup, or from the source while none could answer, is never
//   kept past a build that changes which rollup answers or what it holds),
// - and, for filters relative to now ("in the past 7 days"), the quarter hour: every day, week, month
//   or year boundary of every time zone falls on a quarter hour of UTC, so within one the compiled
//   query is the same.
// The request is the validated one with its defaults and limit filled in, so equivalent requests share
// an entry whatever optional fields they spelled out.
import type { ConnectionView } from '../connections/connection-service.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel } from '../modeling/model-service.js';
import { relativeTimeBucket, sortedEntries } from '../core/semantic/compile-memo.js';
import type { SemanticRequest } from './governed-query.js';
import { cacheKeyOf } from './result-cache.js';

/**
 * Names what an entry holds: entries of another layout (an older release's, kept in a shared Redis
 * during a rolling upgrade) are never read as this one's.
 */
const ENTRY_LAYOUT = 'governed-result:1';

export interface ResultKeyParts {
  readonly principal: Principal;
  readonly live: LiveModel;
  readonly connection: ConnectionView;
  readonly request: SemanticRequest;
  readonly maxRows: number;
  readonly nowMs: number;
  /** The workspace's rollups generation, for a query of a node with rollups. */
  readonly rollups?: number;
}

export function resultKey({ principal, live, connection, request, maxRows, nowMs, rollups }: ResultKeyParts): string {
  // The request's JSON is written once: searched for periods relative to now, then ends the key
  // (after a complete JSON array, so no two sets of parts read the same).
  const requestJson = JSON.stringify(request);
  const context = cacheKeyOf([
    ENTRY_LAYOUT,
    principal.workspace.id,
    principal.workspace.timezone,
    attributesJson(principal.attributes),
    live.version,
    connection.id,
    connection.updated_at,
    maxRows,
    relativeTimeBucket(requestJson, nowMs),
    rollups ?? null,
  ]);
  return `${context}${requestJson}`;
}

// A principal's attributes, in a fixed order, as JSON: written once per attributes object (a key's
// principal is kept between its requests, and its attributes are never changed in place).
const attributeTexts = new WeakMap<Principal['attributes'], string>();

function attributesJson(attributes: Principal['attributes']): string {
  let text = attributeTexts.get(attributes);
  if (text === undefined) attributeTexts.set(attributes, (text = JSON.stringify(sortedEntries(attributes))));
  return text;
}
