// The one error map. Whatever fails (our AppErrors, zod validation, Fastify's own parsing errors, an
// unknown route, a bug) answers JSON `{"error": "<human message>", "code": "..."}` with the right
// status; only a browser's request for a page it does not know gets the console's not-found page. 5xx bodies carry only the request id; the log carries the stack.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, RateLimitedError } from '../core/errors.js';
import { DependencyUnavailableError } from '../dependency-unavailable.js';
import { fieldPath } from './input-guard.js';

export interface ErrorBody {
  error: string;
  code?: string;
  request_id?: string;
  [detail: string]: unknown;
}

export interface ErrorsOptions {
  bodyLimit: number;
  /** Answers an unknown route itself when it is a browser's page request (the console's not-found page). */
  answerPageNotFound?: (request: FastifyRequest, reply: FastifyReply) => boolean;
}

export const errorsPlugin = fp(
  async (app: FastifyInstance, { bodyLimit, answerPageNotFound }: ErrorsOptions) => {
    // JSON only, and an empty JSON body is "no body" (for bodiless POSTs such as revoke or logout).
    // The default parser is kept underneath: it refuses __proto__ and constructor poisoning.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
      parseJson(request, body as string, done);
    });

    app.setNotFoundHandler((request, reply) => {
      if (answerPageNotFound?.(request, reply)) return;
      void reply.code(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'route_not_found' });
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body } = describe(error, bodyLimit);
      if (error instanceof RateLimitedError || error instanceof DependencyUnavailableError) void reply.header('Retry-After', error.retryAfterSeconds);
      if (error instanceof DependencyUnavailableError) {
        // An outage, not a bug: one line naming the dependency, without a stack (one per request).
        request.log.warn({ dependency: error.dependency, reason: error.reason }, 'dependency unavailable');
        body.request_id = request.id;
      } else if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        body.request_id = request.id;
      } else {
        request.log.info({ status, code: body.code }, body.error);
      }
      return sendError(reply, status, body);
    });
  },
  { name: 'errors' },
);

function sendError(reply: FastifyReply, status: number, body: ErrorBody) {
  // The reply may already carry a schema for success; errors bypass it.
  return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

function describe(error: FastifyError, bodyLimit: number): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: error.message, code: error.code, ...error.details } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as FastifyError).validationContext ?? 'request';
    const problems = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, '');
      const segments = path === '' ? [] : path.split('/').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      return `${fieldPath(where, segments)}: ${issue.message}`;
    });
    return { status: 400, body: { error: `Invalid request: ${problems.join('; ')}`, code: 'invalid_request' } };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { error: 'Malformed JSON in request body', code: 'malformed_json' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: `Request body is larger than the limit of ${bodyLimit} bytes`, code: 'body_too_large' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { error: 'Unsupported Content-Type: send the body as application/json', code: 'unsupported_media_type' } };
  }
  // The JSON parser reports syntax errors as plain 400s.
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.name === 'SyntaxError')) {
    return { status: 400, body: { error: 'Malformed JSON in request body', code: 'malformed_json' } };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own client errors (bad content length, bad URL…) have safe, generic messages.
    return { status: error.statusCode, body: { error: error.message, code: (error.code ?? 'bad_request').toLowerCase() } };
  }
  return { status: 500, body: { error: 'Internal server error', code: 'internal' } };
}

