// Rate limits of spec section 8, as fixed clock-aligned windows counted in the shared state (Redis when
// configured). Every rate-limited response carries X-RateLimit-Limit / -Remaining / -Reset, where Reset
// is the end of the current window in Unix epoch seconds; a 429 adds Retry-After in seconds.
import type { FastifyReply } from 'fastify';
import { RateLimitedError } from '../core/errors.js';
import type { SharedState, WindowCount } from '../shared-state/shared-state.js';
import type { RateLimitPolicyName } from './route-policy.js';

interface RateLimitPolicy {
  windowMs: number;
  limit: number;
  /** Whose budget a request spends. */
  per: 'key' | 'workspace';
  describe(limit: number): string;
}

export const RATE_LIMITS: Record<RateLimitPolicyName, RateLimitPolicy> = {
  question: {
    windowMs: 3_600_000,
    limit: 100,
    per: 'key',
    describe: (limit) => `Rate limit exceeded: ${limit} requests per hour for this key; retry after the start of the next hour`,
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
  workspaceId: string;
  /** The key's own limit, replacing the policy's for per-key budgets. */
  keyLimit: number | null | undefined;
}

/** Counts this request against its budget; `generationName` is read in the same round trip. */
export function countRequest(shared: SharedState, policyName: RateLimitPolicyName, spender: Spender, generationName?: string) {
  const policy = RATE_LIMITS[policyName];
  const owner = policy.per === 'key' && spender.keyId ? `key:${spender.keyId}` : `ws:${spender.workspaceId}`;
  return shared.hit(`${policyName}:${owner}`, policy.windowMs, generationName);
}

/** Sets the X-RateLimit headers for a counted request, and refuses it with 429 when over budget. */
export function applyRateLimit(
  reply: FastifyReply,
  policyName: RateLimitPolicyName,
  spender: Spender,
  window: WindowCount,
  nowMs: number,
): void {
  const policy = RATE_LIMITS[policyName];
  const limit = (policy.per === 'key' ? spender.keyLimit : undefined) ?? policy.limit;
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - window.count));
  reply.header('X-RateLimit-Reset', Math.ceil(window.resetAtMs / 1000));
  if (window.count > limit) {
    throw new RateLimitedError(policy.describe(limit), Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000)));
  }
}
