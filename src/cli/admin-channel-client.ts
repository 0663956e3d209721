// The `svc` side of a running server's admin channel. With the embedded store, a running server owns the
// store (store/store-lock.ts) and a command may not open it: the command is sent to that server instead,
// which runs it with the same functions and answers what it printed and its exit status. The server side
// is admin-channel-server.ts; the channel file, written by the server, says where to find it.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { z } from 'zod';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import { storeLocation } from '../runtime.js';
import { StoreInUseError } from '../store/store-lock.js';
import { err, out, type CapturedRun } from './output.js';
import type { StoreRequest } from './store-request.js';

/** What `<store>.channel` holds: the server's PID, its loopback port, and the secret every request carries. */
export interface ChannelFile {
  pid: number;
  port: number;
  secret: string;
}

export const CHANNEL_PATH = '/commands';

const channelFileSchema = z.object({ pid: z.number().int(), port: z.number().int().min(1).max(65535), secret: z.string().min(32) });
const answerSchema = z.object({ stdout: z.string(), stderr: z.string(), exitCode: z.number().int() });

/** The channel file of the embedded store beside its lock; none with PostgreSQL, which commands share directly. */
export function channelFileOf(config: Config): string | undefined {
  const location = storeLocation(config);
  return location.kind === 'pglite' && location.dataDir ? `${location.dataDir}.channel` : undefined;
}

export function readChannelFile(file: string): ChannelFile | undefined {
  try {
    const parsed = channelFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // absent, or being written
  }
}

/**
 * Runs `request` in the server named by `refused` (the lock's owner) and prints its answer. Without a
 * channel of that server (one still starting or stopping, or of an earlier version), or when it does
 * not take the command, the refusal stands: nothing was changed.
 */
export async function sendToServer(config: Config, refused: StoreInUseError, request: StoreRequest): Promise<number> {
  const file = channelFileOf(config);
  const channel = file ? readChannelFile(file) : undefined;
  // A file left by another process (a server killed before it could remove it) is not this server's.
  if (!file || !channel || channel.pid !== refused.owner.pid) throw refused;
  let answer: { status: number; body: string };
  try {
    answer = await post(channel, request);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Refused before anything was sent: the command did not run.
    if (code === 'ECONNREFUSED') throw stillRefused(refused, `its admin channel (${file}) did not answer (${code})`);
    throw new AppError(1, 'channel_failed', `the running server's admin channel failed during the command (${code ?? (error as Error).message}); check whether it took effect before running it again`);
  }
  const run = answer.status === 200 ? answerSchema.safeParse(parseJson(answer.body)) : undefined;
  if (!run?.success) throw stillRefused(refused, `its admin channel (${file}) did not take the command (HTTP ${answer.status})`);
  const { stdout, stderr, exitCode }: CapturedRun = run.data;
  out(stdout);
  err(stderr);
  return exitCode;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stillRefused(refused: StoreInUseError, why: string): StoreInUseError {
  const [facts, ...advice] = refused.message.split('\n');
  return new StoreInUseError(refused.owner, refused.file, refused.reason, [`${facts} The command was not sent to it: ${why}.`, ...advice].join('\n'));
}

function post(channel: ChannelFile, request: StoreRequest): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(request);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: channel.port,
        path: CHANNEL_PATH,
        method: 'POST',
        headers: { authorization: `Bearer ${channel.secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
