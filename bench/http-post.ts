// A lean keep-alive HTTP client for latency benchmarks: one socket, JSON in, status checked, body read
// in full (the caller pays for the whole answer, as a real client would).
import http from 'node:http';

export type Post = (path: string, headers: Record<string, string>, body: unknown) => Promise<string>;

export function keepAlivePost(port: number): { post: Post; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post: Post = (path, headers, body) =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = http.request(
        { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
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
  return { post, close: () => agent.destroy() };
}
