// Rate limits of spec section 8, as fixed clock-aligned windows counted in the shared state (Redis when
// configured). Every rate-limited response carries X-RateLimit-Limit / -Remaining / -Reset, where Reset
// is the end of the current window in Unix epoch seconds; a 429 adds Retry-After in seconds.
//
// Requests on the key surfaces that are answered before a key is accepted (401, 400 key_in_url, 403
// https_required, 404 for an unknown route) spend a budget of their client address instead, whose
// counters give those answers their headers. Spent, those answers become 429s. A well-formed key is
// still looked up, whatever its address spent: a valid key is judged by the key (key-admission.ts).
import type { FastifyReply } from 'fastify';
import { RateLimitedError } from '../core/errors.js';
import type { SharedState, WindowCount } from '../shared-state/shared-state.js';
import type { RateLimitPolicyName } from './route-policy.js';

interface RateLimitPolicy {
  windowMs: number;
  limit: number;
  /** Whose budget a request spends: a key's, a signed-in user's in one workspace, or a workspace's. */
  per: 'key' | 'user' | 'workspace';
  describe(limit: number): string;
}

export const RATE_LIMITS: Record<RateLimitPolicyName, RateLimitPolicy> = {
  question: {
    windowMs: 3_600_000,
    limit: 100,
    per: 'key',
    describe: (limit) => `Rate limit exceeded: ${limit} requests per hour for this key; retry after the start of the next hour`,
  },
  // Questions asked in the console: the signed-in user's own hourly budget in the workspace, the same
  // as one question key's, so a session never asks a language model without limit.
  session_question: {
    windowMs: 3_600_000,
    limit: 100,
    per: 'user',
    describe: (limit) => `Rate limit exceeded: ${limit} questions per hour for you in this workspace; retry after the start of the next hour`,
  },
  workspace: {
    windowMs: 60_000,
    limit: 60,
    per: 'key',
    describe: (limit) => `Rate limit exceeded: ${limit} requests per minute for this key`,
  },
  structured: {
    windowMs: 60_000,
    limit: 1000,
    per: 'workspace',
    describe: (limit) => `Rate limit exceeded: ${limit} requests per minute for this workspace`,
  },
};

/** Who is spending a budget: the key's id and workspace never change for a key, so a cached row will do. */
export interface Spender {
  keyId: string | undefined;
  /** The signed-in user of a session (per-user budgets). */
  userId?: string | undefined;
  workspaceId: string;
  /** The key's own limit, replacing the policy's for per-key budgets. */
  keyLimit: number | null | undefined;
}

/** Counts this request against its budget; the generations named are read in the same round trip. */
export function countRequest(shared: SharedState, policyName: RateLimitPolicyName, spender: Spender, generationNames?: readonly string[]) {
  return shared.hit(`${policyName}:${budgetOwner(RATE_LIMITS[policyName], spender)}`, RATE_LIMITS[policyName].windowMs, generationNames);
}

function budgetOwner(policy: RateLimitPolicy, spender: Spender): string {
  if (policy.per === 'key' && spender.keyId) return `key:${spender.keyId}`;
  if (policy.per === 'user' && spender.userId) return `user:${spender.workspaceId}:${spender.userId}`;
  return `ws:${spender.workspaceId}`;
}

/** Sets the X-RateLimit headers for a counted request, and refuses it with 429 when over budget. */
export function applyRateLimit(
  reply: FastifyReply,
  policyName: RateLimitPolicyName,
  spender: Spender,
  window: WindowCount,
  nowMs: number,
): void {
  const limit = limitOf(policyName, spender);
  enforce(reply, limit, window, nowMs, window.count > limit ? RATE_LIMITS[policyName].describe(limit) : undefined);
}

function limitOf(policyName: RateLimitPolicyName, spender: Spender): number {
  const policy = RATE_LIMITS[policyName];
  return (policy.per === 'key' ? spender.keyLimit : undefined) ?? policy.limit;
}

/**
 * Spends one unit of a budget other than the request's own, refusing past it: a question asked through
 * an MCP tool call spends its key's hourly question budget, as a question on surface A does.
 */
export async function spendBudget(shared: SharedState, policyName: RateLimitPolicyName, spender: Spender, nowMs: number): Promise<void> {
  const window = await countRequest(shared, policyName, spender);
  const limit = limitOf(policyName, spender);
  if (window.count > limit) throw new RateLimitedError(RATE_LIMITS[policyName].describe(limit), retryAfterSeconds(window, nowMs));
}

function retryAfterSeconds(window: WindowCount, nowMs: number): number {
  return Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000));
}

/**
 * The budget of a client address for answers given without an accepted key. Sixty a minute, B's own
 * budget: a client that fails gets as many answers as one that works, enough to read the 401 and fix
 * its key, while a guesser (or a flood of lookups of random keys) gets one a second from each address.
 */
export const UNAUTHENTICATED_BUDGET = { windowMs: 60_000, limit: 60 } as const;

/** A budget of a client address: requests per window, counted under its own name in the shared state. */
export interface AddressBudget {
  readonly name: string;
  readonly windowMs: number;
  readonly limit: number;
  readonly refusal: string;
}

const UNAUTHENTICATED: AddressBudget = {
  name: 'unauthenticated',
  ...UNAUTHENTICATED_BUDGET,
  refusal: `Too many requests without a valid API key from this address: ${UNAUTHENTICATED_BUDGET.limit} per minute`,
};

/** Counts an answer given without an accepted key and sets its headers; past the budget, it becomes a 429. */
export function spendUnauthenticated(shared: SharedState, reply: FastifyReply, address: string, nowMs: number): Promise<void> {
  return spendAddressBudget(shared, reply, UNAUTHENTICATED, address, nowMs);
}

/** Counts a request against its client address's budget and sets the headers; past the budget, a 429. */
export async function spendAddressBudget(shared: SharedState, reply: FastifyReply, budget: AddressBudget, address: string, nowMs: number): Promise<void> {
  const window = await shared.hit(`${budget.name}:${address}`, budget.windowMs);
  enforce(reply, budget.limit, window, nowMs, window.count > budget.limit ? budget.refusal : undefined);
}

/** The headers of a counted window; with a `refusal` message, a 429 that says when to retry. */
function enforce(reply: FastifyReply, limit: number, window: WindowCount, nowMs: number, refusal: string | undefined): void {
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - window.count));
  reply.header('X-RateLimit-Reset', Math.ceil(window.resetAtMs / 1000));
  if (refusal !== undefined) throw new RateLimitedError(refusal, retryAfterSeconds(window, nowMs));
}
