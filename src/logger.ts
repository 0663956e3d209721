// One pino logger for the process. Credentials never reach the log, whatever a route or hook chooses
// to log: headers that carry them and the body fields that do are redacted at the source; URLs
// (request lines) lose credential-looking query values and key-shaped path segments; and any key-shaped
// text left in a message or an error (a 404 naming its path, a driver echoing a value) is masked.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { redactKeys, redactUrl } from './identity/credential-shapes.js';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.value',
  '*.token',
  '*.apiKey',
  'password',
  'value',
  'token',
];

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** Fastify's request line (never the headers), with the URL made safe to keep. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : undefined,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: redactKeys(serialized.message), ...(serialized.stack ? { stack: redactKeys(serialized.stack) } : {}) };
}

export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest, err: serializeError },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactKeys(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
