// Webhook deliveries from the outbox to a receiver on loopback, through the delivery worker as the
// server runs it (embedded store, poll every SVC_EVENTS_POLL_MS). Reports events delivered per second
// for a burst, and the time from the cause's commit (the event row written) to the receiver's 2xx,
// one event at a time, p50 / p99.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordEvent } from '../src/events/event-record.js';
import { startBenchApp } from './bench-app.js';
import { percentile } from './timing.js';

const BURST = Number(process.env.BENCH_EVENTS ?? 500);
const SINGLES = Number(process.env.BENCH_RUNS ?? 100);
const POLL_MS = 20;

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => resolve(text));
  });
}

export async function benchEvents(): Promise<string[]> {
  const arrived = new Map<string, number>();
  let onArrival: (() => void) | undefined;
  const receiver = createServer(async (request, response) => {
    const payload = JSON.parse(await body(request)) as { event_id: string };
    arrived.set(payload.event_id, performance.now());
    response.writeHead(204).end();
    onArrival?.();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const { services, close } = await startBenchApp({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', SVC_EVENTS_POLL_MS: String(POLL_MS) } });
  const worker = services.deliveryWorker({ pollMs: POLL_MS });
  const lines = [`Webhook deliveries to a loopback receiver (embedded store, poll ${POLL_MS} ms)`];
  try {
    const ws = await services.members.createWorkspace({ name: 'Events', plan: 'team' });
    await services.webhooks.create(ws.id, { url: `http://127.0.0.1:${port}/hook`, events: ['*'], description: 'bench' });
    worker.start();
    const until = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => arrived.size >= count && resolve();
        onArrival = check;
        check();
      });

    // One at a time: the commit of the cause to the receiver's answer.
    const latencies: number[] = [];
    for (let i = 0; i < SINGLES; i++) {
      const before = arrived.size;
      const started = performance.now();
      const event = await recordEvent(services.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { deployed_at: new Date().toISOString(), deployed_by: 'bench@example.com', changed_nodes: [], pr_url: null } });
      await until(before + 1);
      latencies.push(arrived.get(event.id)! - started);
    }
    latencies.sort((a, b) => a - b);
    lines.push(`  cause committed → receiver 2xx, one at a time (${SINGLES}): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`);

    // A burst: every event written first, then delivered.
    const base = arrived.size;
    const started = performance.now();
    for (let i = 0; i < BURST; i++) await recordEvent(services.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { deployed_at: new Date().toISOString(), deployed_by: 'bench@example.com', changed_nodes: [], pr_url: null } });
    await until(base + BURST);
    const seconds = (performance.now() - started) / 1000;
    lines.push(`  burst of ${BURST}: ${(BURST / seconds).toFixed(0)} events/s delivered (written and delivered in ${seconds.toFixed(2)} s)`);
  } finally {
    await worker.stop();
    await close();
    receiver.close();
  }
  return lines;
}
