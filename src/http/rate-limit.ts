// Rate limits of spec section 8, as fixed clock-aligned windows counted in the shared state (Redis when
// configured). Every rate-limited response carries X-RateLimit-Limit / -Remaining / -Reset, where Reset
// is the end of the current window in Unix epoch seconds; a 429 adds Retry-After in seconds.
import type { FastifyReply } from 'fastify';
import { RateLimitedError } from '../core/errors.js';
import type { Principal } from '../identity/principal.js';
import type { SharedState } from '../shared-state/shared-state.js';
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

export async function enforceRateLimit(
  shared: SharedState,
  policyName: RateLimitPolicyName,
  principal: Principal,
  reply: FastifyReply,
  nowMs: number,
): Promise<void> {
  const policy = RATE_LIMITS[policyName];
  const owner = policy.per === 'key' && principal.key ? `key:${principal.key.id}` : `ws:${principal.workspace.id}`;
  const limit = (policy.per === 'key' ? principal.key?.rateLimit : undefined) ?? policy.limit;
  const { count, resetAtMs } = await shared.hit(`${policyName}:${owner}`, policy.windowMs);

  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - count));
  reply.header('X-RateLimit-Reset', Math.ceil(resetAtMs / 1000));
  if (count > limit) {
    throw new RateLimitedError(policy.describe(limit), Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)));
  }
}
