// The issuer (RFC 8414): the base URL a client reached the service at, scheme and host as the request
// carried them (through a trusted proxy, as it reported them). The protected resource is its /mcp.
import type { FastifyRequest } from 'fastify';

export function issuerOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
