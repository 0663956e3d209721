// Errors Fastify's router answers before any route or hook runs: a path parameter longer than the
// router's limit, and a URL whose percent-encoding is not valid UTF-8. Answered in the shape of every
// other error, without echoing the URL back.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Characters a path parameter may have before the router refuses it; routes validate shorter limits. */
export const MAX_PATH_PARAM_CHARS = 500;

export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const body =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? { status: 414, error: `A path parameter is longer than ${MAX_PATH_PARAM_CHARS} characters`, code: 'path_parameter_too_long' }
      : error.code === 'FST_ERR_BAD_URL'
        ? { status: 400, error: 'The URL is malformed: a percent-encoded sequence is not valid UTF-8', code: 'malformed_url' }
        : { status: error.statusCode ?? 400, error: 'The request could not be routed', code: 'bad_request' };
  void reply.code(body.status).type('application/json; charset=utf-8').send(JSON.stringify({ error: body.error, code: body.code }));
}
