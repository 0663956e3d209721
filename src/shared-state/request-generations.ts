// The generations a request of a workspace may consult: who may do what (identity), the workspace's
// live model, its connections, and its rollups' build records. They are read in the request's first round trip to the shared
// state (with its rate limit, or with its session's generation), so that the caches keyed by them
// answer the rest of the request without another (see GenerationSnapshot).
import { IDENTITY_GENERATION } from '../identity/generations.js';
import type { Principal } from '../identity/principal.js';
import { snapshotOf } from './shared-state.js';

export function modelGeneration(workspaceId: string): string {
  return `model:${workspaceId}`;
}

export function connectionsGeneration(workspaceId: string): string {
  return `connections:${workspaceId}`;
}

export function rollupsGeneration(workspaceId: string): string {
  return `rollups:${workspaceId}`;
}

/** The names read at admission, identity first (the key and session caches read it from there). */
export function requestGenerations(workspaceId: string): readonly string[] {
  return [IDENTITY_GENERATION, modelGeneration(workspaceId), connectionsGeneration(workspaceId), rollupsGeneration(workspaceId)];
}

/**
 * The principal of this request with the generations `requestGenerations(workspaceId)` read at its
 * admission, in a new object (principals are made per request). Generations of another workspace than
 * the principal's are not kept: its caches then read their own.
 */
export function withGenerations(principal: Principal, workspaceId: string, values: readonly number[]): Principal {
  if (principal.workspace.id !== workspaceId) return principal;
  return { ...principal, generations: snapshotOf(requestGenerations(workspaceId), values) };
}
