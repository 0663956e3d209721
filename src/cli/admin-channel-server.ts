// The running server's admin channel: with the embedded store, the server owns the store, so `svc`
// commands (users, workspaces, keys, model deploy...) are sent here and run in the server, through the
// same functions a command run on its own uses (store-commands.ts), answering what they printed and
// their exit status. The client side is admin-channel-client.ts.
//
// It listens on 127.0.0.1 only, on a port the system picks, rather than on a Unix socket in the data
// directory: a socket's path is limited to about 100 bytes, and a data directory may lie deeper than
// that. Reaching the port grants nothing: every request must carry the secret, 32 random bytes made
// at each start and kept in the channel file, which only the server's user may read (mode 0600), and
// compared in constant time. The file is removed when the server stops (or exits otherwise).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { removeQuietly } from '../store/store-lock.js';
import { CHANNEL_PATH, channelFileOf, parseJson, type ChannelFile } from './admin-channel-client.js';
import { capture, type CapturedRun } from './output.js';
import { runStoreRequest } from './store-commands.js';
import { requestName, storeRequestSchema } from './store-request.js';

/** Model files come with deploys: generous, but bounded. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface AdminChannel {
  readonly file: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface ChannelLog {
  info(fields: object, message: string): void;
}

/** Opens the channel of a server on the embedded store; undefined with PostgreSQL, which commands open themselves. */
export async function openAdminChannel(config: Config, services: Services, log: ChannelLog): Promise<AdminChannel | undefined> {
  const file = channelFileOf(config);
  if (!file) return undefined;
  const secret = randomBytes(32).toString('hex');
  const expected = digest(`Bearer ${secret}`);
  // A request that breaks off mid-body gets no answer: there is nobody left to read one.
  const server = http.createServer((req, res) => void answer(req, res).catch(() => res.destroy()));

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const given = req.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) return reply(res, 401, { error: 'This channel needs the secret in the channel file.' });
    if (req.method !== 'POST' || req.url !== CHANNEL_PATH) return reply(res, 404, { error: `Send commands with POST ${CHANNEL_PATH}.` });
    const body = await readBody(req);
    if (body === undefined) return reply(res, 413, { error: `A command may not exceed ${MAX_BODY_BYTES} bytes.` });
    const parsed = storeRequestSchema.safeParse(parseJson(body));
    if (!parsed.success) return reply(res, 400, { error: 'Not a command this server runs.' });
    const request = parsed.data;
    const run: CapturedRun =
      request.command === 'migrate'
        ? { stdout: 'The server applied migrations at start; nothing to do.\n', stderr: '', exitCode: 0 }
        : await capture(() => runStoreRequest(services, [], request));
    // The command's name and outcome only: option values may hold a password.
    log.info({ command: requestName(request), exitCode: run.exitCode }, 'svc command run for the admin channel');
    reply(res, 200, run);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const content = `${JSON.stringify({ pid: process.pid, port, secret } satisfies ChannelFile)}\n`;
  // A fresh file each start: one left by a killed server is replaced, never reused (and `wx` applies the mode).
  removeQuietly(file);
  writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
  const remove = () => {
    process.off('exit', remove);
    if (readQuietly(file) === content) removeQuietly(file);
  };
  process.on('exit', remove);
  return {
    file,
    port,
    async close() {
      remove();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function reply(res: http.ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', reject);
  });
}

function readQuietly(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
