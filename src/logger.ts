// One pino logger for the process. Credentials never reach the log: headers that carry them and the
// body fields that do are redacted at the source, whatever a route or hook chooses to log.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

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

export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
