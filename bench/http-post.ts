// A lean keep-alive HTTP client for latency benchmarks: one socket, JSON in, status checked, body read
// in full (the caller pays for the whole answer, as a real client would).
import http from 'node:http';
import https from 'node:https';

export type Post = (path: string, headers: Record<string, string>, body?: unknown) => Promise<string>;

/** `post` sends a JSON body; `get` the same request without one. With `ca`, over HTTPS trusting it. */
export function keepAlivePost(port: number, tls?: { ca: string }): { post: Post; get(path: string): Promise<string>; close(): void } {
  const agent = tls ? new https.Agent({ keepAlive: true, maxSockets: 1, ca: tls.ca }) : new http.Agent({ keepAlive: true, maxSockets: 1 });
  const transport = tls ? https : http;
  const post: Post = (path, headers, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const method = body === undefined ? 'GET' : 'POST';
      const sent = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
      const req = transport.request(
        { host: '127.0.0.1', port, path, method, agent, headers: sent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${text.slice(0, 300)}`));
            else resolve(text);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { post, get: (path) => post(path, {}), close: () => agent.destroy() };
}

export const TIMED_OUT = Symbol('timed out');

/** The answer, or TIMED_OUT when the service stopped the query at its time limit (504 warehouse_timeout). */
export async function pastTimeLimit<T>(ask: () => Promise<T>): Promise<T | typeof TIMED_OUT> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof Error && /: 504 .*warehouse_timeout/.test(error.message)) return TIMED_OUT;
    throw error;
  }
}
