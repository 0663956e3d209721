// The id each request is logged under and answered with (X-Request-Id): the client's own, when it sent
// a usable one, so that its logs and ours meet; else the trace id of a W3C traceparent header, so that
// a traced request is found under its trace; else a fresh UUID. A client's id is taken only when it is
// short printable ASCII: it is echoed in a header and written to every log line of the request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const USABLE_ID = /^[\x21-\x7e]{1,128}$/;
// version-traceid-parentid-flags; version ff and all-zero ids are invalid (W3C Trace Context).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && USABLE_ID.test(given)) return given;
  const traceparent = request.headers.traceparent;
  const trace = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
  if (trace && trace[1] !== 'ff' && !/^0+$/.test(trace[2]!) && !/^0+$/.test(trace[3]!)) return trace[2]!;
  return randomUUID();
}
