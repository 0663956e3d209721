// The headers every console response carries, and the HTML's Content-Security-Policy with a nonce
// fresh for each response. CodeMirror injects its styles at run time: it is given the same nonce
// (read from the page's script tag), so no style ever needs 'unsafe-inline'.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export function freshNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function setCommonHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Frame-Options', 'DENY');
}

/** Puts the nonce on every script and style element of the built page. */
export function withNonce(html: string, nonce: string): string {
  return html.replace(/<(script|style|link)\b/g, (_tag, name: string) => `<${name} nonce="${nonce}"`);
}
