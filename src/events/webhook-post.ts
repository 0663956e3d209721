// One POST to a webhook receiver: connected to the address that was checked (the lookup given to the
// socket returns it, so the host is not resolved a second time), ended when the attempt's deadline
// passes (the caller's signal, which also covers the DNS lookup before it), redirects not followed
// (node:http never follows them; a 3xx is just a failed attempt), and at most 1 KB of the answer kept.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export const RESPONSE_KEEP_BYTES = 1024;

/** What an attempt that reached its time limit records, whichever step it was in. */
export function noAnswerWithin(timeoutMs: number): string {
  return `No answer within ${timeoutMs} ms`;
}

export interface PostOutcome {
  /** Undefined when no answer came (refused, timed out, reset). */
  statusCode?: number;
  durationMs: number;
  response: string;
  error?: string;
}

export function postWebhook(
  url: URL,
  target: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  deadline: { signal: AbortSignal; timeoutMs: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      deadline.signal.removeEventListener('abort', onDeadline);
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    // The whole exchange, not only the connection, is bounded: a receiver that accepts and hangs.
    const onDeadline = () => {
      finish({ response: '', error: noAnswerWithin(deadline.timeoutMs) });
      request.destroy();
    };
    const request = client.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'svc-webhooks/1' }, lookup: pinned, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEEP_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        response.on('end', () => finish({ statusCode: response.statusCode ?? 0, response: Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8') }));
        response.on('error', (error) => finish({ statusCode: response.statusCode ?? 0, response: '', error: error.message }));
      },
    );
    if (deadline.signal.aborted) onDeadline();
    else deadline.signal.addEventListener('abort', onDeadline, { once: true });
    request.on('error', (error) => finish({ response: '', error: error.message }));
    request.end(body);
  });
}
