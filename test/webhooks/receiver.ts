// A real webhook receiver on loopback: answers each request per a script (a status, or 'hang' to never
// answer), then 200; records every request with its raw body and headers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { Clock } from '../../src/clock.js';

export type Answer = number | 'hang';

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export async function startReceiver(script: Answer[] = []) {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const queue = [...script];
  let answerDelayMs = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ url: request.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = queue.shift() ?? 200;
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      setTimeout(() => response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`), answerDelayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    script: (...answers: Answer[]) => queue.push(...answers),
    delay: (ms: number) => (answerDelayMs = ms),
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = performance.now() + timeoutMs;
      while (received.length < count) {
        if (performance.now() > deadline) throw new Error(`the receiver got ${received.length} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A receiver's check of a delivery with the standardwebhooks library, made when the receiver's clock
 * reads the test's: the library compares the signature's timestamp (the service's clock) with Date.now(),
 * so Date alone is set to the test clock's instant for the call. Returns the verified payload, or throws.
 */
export function verifyAt(clock: Clock, secret: string, request: Pick<Received, 'headers' | 'body'>): unknown {
  vi.useFakeTimers({ now: clock.now(), toFake: ['Date'] });
  try {
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    vi.useRealTimers();
  }
}
