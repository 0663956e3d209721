// Webhook deliveries from the outbox to a receiver on loopback, through the delivery worker as the
// server runs it (poll every POLL_MS), on the embedded store and on PostgreSQL. Reports, one cause at a
// time, p50 / p99 from the cause to the receiver's 2xx: an event row committed, a real deploy (from the
// deploy call, which commits the deployment and its event together) and a signal evaluation that
// crosses its threshold (from the evaluation's start: the warehouse read, then the state and the event
// committed together). Then events delivered per second for a burst written at once. Last, one
// endpoint's receiver hangs (accepts, never answers) with a backlog of deliveries waiting for it, at the
// default 10 s time limit, and a healthy endpoint of another workspace is timed from event to 2xx: the
// target is a p99 within 2 s.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEMO_MODEL_DIR, readModelDir, setUpDemo } from '../src/demo-setup.js';
import { recordEvent } from '../src/events/event-record.js';
import { principalOf } from '../src/identity/principal.js';
import { hashPassword } from '../src/identity/passwords.js';
import type { Services } from '../src/services.js';
import { startBenchApp } from './bench-app.js';
import { createScratchPostgres, POSTGRES_URL } from './scratch-postgres.js';
import { percentile } from './timing.js';

const BURST = Number(process.env.BENCH_EVENTS ?? 500);
const SINGLES = Number(process.env.BENCH_RUNS ?? 100);
const DEPLOYS = Number(process.env.BENCH_DEPLOYS ?? 30);
const POLL_MS = 20;
const HANGING = Number(process.env.BENCH_HANGING ?? 1000);
/** A healthy event not delivered within this is reported as such, and the scenario stops. */
const HEALTHY_WAIT_MS = 60_000;
const HEALTHY_TARGET_P99_MS = 2000;

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => resolve(text));
  });
}

/** A receiver that notes when each event arrived, and waits for a number of arrivals. */
async function startTimingReceiver() {
  const arrived = new Map<string, number>();
  let onArrival: (() => void) | undefined;
  const server = createServer(async (request, response) => {
    const payload = JSON.parse(await body(request)) as { event_id: string };
    arrived.set(payload.event_id, performance.now());
    response.writeHead(204).end();
    onArrival?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    /** Resolves when `count` events have arrived, or when the event `id` has. */
    until: (what: number | string) =>
      new Promise<void>((resolve) => {
        const check = () => (typeof what === 'number' ? arrived.size >= what : arrived.has(what)) && resolve();
        onArrival = check;
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const summary = (label: string, ms: number[]) => {
  ms.sort((a, b) => a - b);
  return `  ${label} (${ms.length}): p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`;
};

async function causesToArrival(services: Services, receiver: Awaited<ReturnType<typeof startTimingReceiver>>): Promise<string[]> {
  const lines: string[] = [];
  const ws = await services.members.createWorkspace({ name: 'Events', plan: 'team' });
  const user = await services.members.createUser({ email: `bench-${ws.id}@example.com`, name: 'Bench', passwordHash: await hashPassword('a long bench password') });
  await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
  const deployer = { workspaceId: ws.id, userId: user.id, email: user.email };
  await setUpDemo(services, deployer, { orders: 2000 });
  await services.webhooks.create(ws.id, { url: receiver.url, events: ['*'], description: 'bench' });
  /** From `start` to the arrival of the event it caused (found by `eventOf` once `start` is done). */
  const fresh = async (start: () => Promise<unknown>, eventOf: () => Promise<string>) => {
    const started = performance.now();
    await start();
    const id = await eventOf();
    await receiver.until(id);
    return receiver.arrived.get(id)! - started;
  };
  const lastEvent = async (type: string) =>
    (await services.store.db.selectFrom('events').select('id').where('workspace_id', '=', ws.id).where('type', '=', type).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow()).id;

  const recorded: number[] = [];
  for (let i = 0; i < SINGLES; i++) {
    let id = '';
    recorded.push(await fresh(async () => (id = (await recordEvent(services.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { deployed_at: new Date().toISOString(), deployed_by: 'bench@example.com', changed_nodes: [], pr_url: null } })).id), async () => id));
  }
  lines.push(summary('event row committed → receiver 2xx', recorded));

  const files = await readModelDir(DEMO_MODEL_DIR);
  const deploys: number[] = [];
  for (let i = 0; i < DEPLOYS; i++) {
    // A changed description each time, so that every deploy changes a node.
    const changed = files.map((f, index) => (index === 0 ? { ...f, content: `${f.content}\n# deploy ${i}\n` } : f));
    deploys.push(await fresh(() => services.models.deploy(deployer, 'demo', changed, { prUrl: `https://git.example.com/pr/${i}` }), () => lastEvent('model.deployed')));
  }
  lines.push(summary('deploy call → model.deployed at the receiver', deploys));

  const owner = await services.signalRows.owner(ws.id, user.id);
  const signal = await services.signals.create(principalOf(owner!, 'session'), {
    name: 'Bench',
    watch: { node: 'orders', measure: 'order_count' },
    condition: 'greater_than',
    threshold: 0,
    schedule: { interval_seconds: 3600 },
    enabled: true,
  });
  const crossings: number[] = [];
  const evaluations: number[] = [];
  for (let i = 0; i < DEPLOYS; i++) {
    // Each round crosses (threshold 0) and clears (threshold above any count) again: one event per round.
    await services.store.db.updateTable('signals').set({ threshold: 0 }).where('id', '=', signal.id).execute();
    const crossing = (await services.signalRows.get(ws.id, signal.id))!;
    let evaluated = 0;
    crossings.push(await fresh(async () => {
      const started = performance.now();
      await services.signals.evaluate(crossing, { send: true });
      evaluated = performance.now() - started;
    }, () => lastEvent('signal.triggered')));
    evaluations.push(evaluated);
    await services.store.db.updateTable('signals').set({ threshold: 1e12 }).where('id', '=', signal.id).execute();
    await services.signals.evaluate((await services.signalRows.get(ws.id, signal.id))!, { send: true });
  }
  lines.push(summary('signal evaluation start → signal.triggered at the receiver', crossings));
  lines.push(summary('  of which the evaluation itself (warehouse read + commit)', evaluations));

  const base = receiver.arrived.size;
  const started = performance.now();
  for (let i = 0; i < BURST; i++) await recordEvent(services.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { deployed_at: new Date().toISOString(), deployed_by: 'bench@example.com', changed_nodes: [], pr_url: null } });
  await receiver.until(base + BURST);
  const seconds = (performance.now() - started) / 1000;
  lines.push(`  burst of ${BURST}: ${(BURST / seconds).toFixed(0)} events/s delivered (written and delivered in ${seconds.toFixed(2)} s)`);
  return lines;
}

/** A receiver that accepts every request and never answers, until it is closed. */
async function startHangingReceiver() {
  const sockets = new Set<Socket>();
  let open = 0;
  let mostOpen = 0;
  let received = 0;
  const server = createServer((request, response) => {
    received++;
    mostOpen = Math.max(mostOpen, ++open);
    // Never answered: the response closes when the worker gives up (its time limit) or the server closes.
    response.on('close', () => open--);
    request.resume();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    mostOpen: () => mostOpen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A healthy endpoint's event → 2xx while HANGING deliveries wait on another endpoint whose receiver hangs. */
async function healthyBesideHanging(services: Services, receiver: Awaited<ReturnType<typeof startTimingReceiver>>): Promise<string[]> {
  const hanging = await startHangingReceiver();
  try {
    const stuck = await services.members.createWorkspace({ name: 'Hanging receiver', plan: 'team' });
    const healthy = await services.members.createWorkspace({ name: 'Healthy receiver', plan: 'team' });
    await services.webhooks.create(stuck.id, { url: hanging.url, events: ['*'], description: 'hangs' });
    await services.webhooks.create(healthy.id, { url: receiver.url, events: ['*'], description: 'healthy' });
    for (let i = 0; i < HANGING; i++) await recordEvent(services.store.db, { workspaceId: stuck.id, type: 'model.deployed', fields: { n: i } });
    while (hanging.received() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const samples: number[] = [];
    let late = false;
    for (let i = 0; i < SINGLES && !late; i++) {
      const started = performance.now();
      const { id } = await recordEvent(services.store.db, { workspaceId: healthy.id, type: 'model.deployed', fields: { healthy: i } });
      late = !(await Promise.race([receiver.until(id).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HEALTHY_WAIT_MS))]));
      if (!late) samples.push(receiver.arrived.get(id)! - started);
    }
    const label = `event committed → receiver 2xx while ${HANGING} deliveries hang on another endpoint (time limit 10 s)`;
    if (late) return [`  ${label}: event ${samples.length + 1} not delivered within ${HEALTHY_WAIT_MS / 1000} s`];
    const line = summary(label, samples);
    const p99 = percentile(samples, 0.99);
    return [
      line,
      `    target p99 ≤ ${HEALTHY_TARGET_P99_MS} ms: ${p99 <= HEALTHY_TARGET_P99_MS ? 'met' : 'NOT met'}; the hanging receiver held at most ${hanging.mostOpen()} requests at once (${hanging.received()} in all)`,
    ];
  } finally {
    // Closing it ends the attempts under way at once, so that the worker stops without waiting for them.
    await hanging.close();
  }
}

async function onStore(label: string, databaseUrl: string | undefined): Promise<string[]> {
  const receiver = await startTimingReceiver();
  const { services, close } = await startBenchApp({ ...(databaseUrl ? { databaseUrl } : {}), env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', SVC_EVENTS_POLL_MS: String(POLL_MS) } });
  const worker = services.deliveryWorker({ pollMs: POLL_MS });
  worker.start();
  try {
    const lines = [`Webhook deliveries to a loopback receiver (${label}, poll ${POLL_MS} ms)`, ...(await causesToArrival(services, receiver))];
    return [...lines, ...(await healthyBesideHanging(services, receiver))];
  } finally {
    await worker.stop();
    await close();
    await receiver.close();
  }
}

export async function benchEvents(): Promise<string[]> {
  const lines = await onStore('embedded store', undefined);
  const postgres = await createScratchPostgres('svc_bench_events').catch(() => undefined);
  if (!postgres) return [...lines, `PostgreSQL store: skipped (${POSTGRES_URL} does not answer)`];
  try {
    return [...lines, ...(await onStore('PostgreSQL store', postgres.url))];
  } finally {
    await postgres.drop();
  }
}
