// The operator's bearer token, SVC_METRICS_TOKEN: it reads GET /metrics and what /readyz says beyond
// "ready" (which DuckDB files this instance lacks, by workspace and connection).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether a request carries `Authorization: Bearer <token>`; never true without a configured token. */
export function operatorTokenCheck(token: string | undefined): (request: FastifyRequest) => boolean {
  const expected = token ? digest(token) : undefined;
  return (request) => {
    const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    // Compared as digests, in constant time: the token's length and content stay unknown.
    return Boolean(match && expected && timingSafeEqual(digest(match[1]!), expected));
  };
}
