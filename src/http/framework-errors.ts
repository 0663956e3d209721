// Answers Fastify or Node's HTTP parser give before any route or hook of ours runs: a path parameter
// longer than the router's limit, a URL whose percent-encoding is not valid UTF-8, a request the HTTP
// parser refuses (a control character in a header, headers too large, a malformed request line), and
// requests that arrive while the server is closing. Each is answered in the shape of every other error,
// `{"error", "code"}`, without echoing the request back.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../dependency-unavailable.js';

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

/**
 * Fastify's clientErrorHandler: Node's parser refused the bytes before a request existed, so the answer
 * is written to the socket by hand and the connection closed, as Node itself does.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, { error: 'The request was not received in time', code: 'request_timeout' }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { error: 'The request headers are larger than the server accepts', code: 'headers_too_large' }]
        : [400, { error: 'Malformed HTTP request (for example a control character in a header)', code: 'malformed_http' }];
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * A request that arrives on a kept-alive connection after close() began: 503 with Retry-After in the
 * usual shape, so a client of a restarting instance retries (another instance, or this one once back).
 */
export function answerWhileClosing(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .header('Retry-After', UNAVAILABLE_RETRY_AFTER_SECONDS)
    .header('Connection', 'close')
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ error: 'The server is shutting down; retry after the number of seconds in Retry-After', code: 'service_unavailable' });
}
