// The durable delivery loop. It (1) fans new events out into one delivery row per endpoint that asked
// for them (pending for an enabled endpoint, `skipped` for a disabled one, so that a recovery can send it
// later), and (2) claims due deliveries and POSTs them. The rows are the whole state: a process killed at
// any point loses nothing, since an unfinished claim is a lease that simply ends.
//
// Why a home-made claim loop rather than pg-boss: the store is kysely over either node-postgres or
// embedded PGlite; pg-boss 10 speaks to PostgreSQL through its own pg pool and would need an adapter for
// PGlite, plus its own schema and maintenance jobs. `SELECT … FOR UPDATE SKIP LOCKED` in a short
// transaction works the same on both stores and is all that claiming needs.
//
// A claim is a lease, not a held lock: the claiming transaction counts the attempt, sets `claimed_until`
// by the store's clock and commits, so no transaction stays open across the HTTP call (PGlite has a
// single connection that every request shares). Two workers never claim the same row, and a worker that
// dies mid-attempt leaves a row that another takes once the lease ends. Claims go endpoint by endpoint,
// each with its own bound on attempts in flight (delivery-claims.ts), and the loop claims again as soon
// as any attempt ends: it never waits for the slowest receiver, so one that hangs delays nobody else.
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Store } from '../store/db.js';
import { chatBody } from './chat-text.js';
import { claimDeliveries, ENDPOINT_CONCURRENCY, type ClaimedDelivery, type ClaimedEndpoint } from './delivery-claims.js';
import { beforeAbort, checkWebhookUrl, parseAllowHosts, resolveWebhookTarget, systemResolver, type Resolver } from './webhook-address.js';
import { DELIVERY_TIMEOUT_MS, noAnswerWithin, postWebhook, type PostOutcome } from './webhook-post.js';
import { webhookHeaders } from './webhook-signing.js';
import { SKIPPED, wants, type DeliveryRow } from './webhook-service.js';

/** Waits after failed attempts 1, 2, …: the first attempt is immediate; ~27.6 h in all (more than 24 h). */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
/** An endpoint whose deliveries have all failed for this long is disabled. */
export const FAILING_DISABLE_MS = 3 * 24 * 3_600_000;
/** Attempts one worker (one instance) has in flight at most, over all endpoints. */
export const WORKER_CONCURRENCY = 64;
const FAN_OUT_BATCH = 20;
/** How long the loop gathers ended attempts before claiming for their slots. */
const GATHER_MS = 15;

export interface DeliveryWorkerOptions {
  store: Store;
  box: SecretBox;
  clock: Clock;
  allowHosts: readonly string[];
  pollMs: number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** How long a claimed attempt is reserved; after it, another worker may take the row. */
  leaseMs?: number;
  /** Attempts in flight per endpoint, across every instance on the store. */
  endpointConcurrency?: number;
  /** Attempts this worker has in flight at most. */
  workerConcurrency?: number;
  resolve?: Resolver;
  onError?: (error: unknown) => void;
}

export class DeliveryWorker {
  private readonly allowHosts: ReadonlySet<string>;
  private readonly delays: readonly number[];
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  /** The attempts under way, each removed when recorded. */
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  /** Ends the loop's wait early: an attempt ended (a slot is free) or the worker stops. */
  private wake: (() => void) | undefined;
  private woken = false;
  private gathering: NodeJS.Timeout | undefined;
  private stopped = true;
  /** Set by stop() and abandon(): no new claim is made. */
  private halted = false;
  /** Set by abandon(): attempts under way finish nothing in the store, as if the process had died. */
  private abandoned = false;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.allowHosts = parseAllowHosts(options.allowHosts.join(','));
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.leaseMs = options.leaseMs ?? this.timeoutMs + 30_000;
    this.perEndpoint = options.endpointConcurrency ?? ENDPOINT_CONCURRENCY;
    this.maxInFlight = options.workerConcurrency ?? WORKER_CONCURRENCY;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.halted = false;
    this.abandoned = false;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the attempts under way to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halted = true;
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.nudge();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /** Stops at once without recording the attempts under way: what a `kill -9` does (for tests). */
  abandon(): void {
    this.abandoned = true;
    this.stopped = true;
    this.halted = true;
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.nudge();
  }

  /**
   * One pass: fans out every new event, then delivers everything due, claiming again whenever an
   * attempt ends; resolves when nothing is left to claim and every attempt it started is recorded.
   */
  async runOnce(): Promise<void> {
    while (!this.halted && (await this.fanOut())) {
      /* until no event is left */
    }
    while (!this.halted) {
      await this.claimAndStart();
      if (!this.inFlight.size) break;
      await Promise.race(this.inFlight);
    }
  }

  /**
   * The server's loop: every poll, fan out new events and fill the free slots; as soon as an attempt
   * ends, fill its slot (without looking for new events, which the polls do).
   */
  private async run(): Promise<void> {
    let nextPoll = 0;
    while (!this.stopped) {
      const polling = performance.now() >= nextPoll;
      if (polling) nextPoll = performance.now() + this.options.pollMs;
      try {
        while (polling && !this.halted && (await this.fanOut())) {
          /* until no event is left */
        }
        await this.claimAndStart();
      } catch (error) {
        this.options.onError?.(error);
      }
      await this.pause(Math.max(0, nextPoll - performance.now()));
    }
  }

  /** Waits `ms`, or less when an attempt ends or the worker stops. */
  private pause(ms: number): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /**
   * An attempt ended: the loop claims again after GATHER_MS, so that attempts ending together (those of
   * one claim usually do) free their slots for one claim rather than one claim each.
   */
  private nudgeSoon(): void {
    if (this.gathering || this.stopped) return;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.nudge();
    }, GATHER_MS);
  }

  private nudge(): void {
    if (this.wake) this.wake();
    else this.woken = true;
  }

  /** Claims as many due deliveries as there are free slots, and starts their attempts. */
  private async claimAndStart(): Promise<void> {
    if (this.halted) return;
    const claimed = await claimDeliveries(this.options.store.db, {
      now: this.options.clock.now(),
      leaseMs: this.leaseMs,
      limit: this.maxInFlight - this.inFlight.size,
      perEndpoint: this.perEndpoint,
    });
    for (const delivery of claimed) {
      const attempt: Promise<void> = this.attempt(delivery)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.inFlight.delete(attempt);
          this.nudgeSoon();
        });
      this.inFlight.add(attempt);
    }
  }

  /** Creates the deliveries of a batch of not yet fanned-out events; false when there was none. */
  private async fanOut(): Promise<boolean> {
    const now = this.options.clock.now();
    return this.options.store.db.transaction().execute(async (trx) => {
      const events = await trx
        .selectFrom('events')
        .select('id')
        .where('fanned_out_at', 'is', null)
        .orderBy('created_at')
        .limit(FAN_OUT_BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (!events.length) return false;
      // An endpoint receives the events that happened once it existed, not older ones that were still
      // waiting to be fanned out when it was created. Compared in SQL: PostgreSQL keeps microseconds, a
      // JavaScript Date only milliseconds. An event in the endpoint's own instant counts as after it: sent
      // rather than lost (embedded PGlite's clock counts milliseconds).
      const pairs = await trx
        .selectFrom('events as e')
        .innerJoin('webhook_endpoints as w', (join) => join.onRef('w.workspace_id', '=', 'e.workspace_id').onRef('w.created_at', '<=', 'e.created_at'))
        .select(['e.id as event_id', 'e.type', 'e.workspace_id', 'w.id as endpoint_id', 'w.events', 'w.enabled'])
        .where('e.id', 'in', events.map((e) => e.id))
        .execute();
      // A disabled endpoint's delivery is recorded as skipped: nothing is sent, but a recovery can send it.
      const rows = pairs
        .filter((p) => wants(p.events, p.type))
        .map((p) => ({
          event_id: p.event_id,
          endpoint_id: p.endpoint_id,
          workspace_id: p.workspace_id,
          ...(p.enabled ? { next_attempt_at: now } : SKIPPED),
        }));
      // Idempotent: a delivery exists once per (event, endpoint) whatever happens to this transaction.
      if (rows.length) await trx.insertInto('webhook_deliveries').values(rows).onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing()).execute();
      await trx
        .updateTable('events')
        .set({ fanned_out_at: now })
        .where('id', 'in', events.map((e) => e.id))
        .execute();
      return true;
    });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const db = this.options.store.db;
    const { endpoint } = delivery;
    // A chat webhook takes {text}; every other endpoint the event itself.
    const body = endpoint.format === 'chat' ? chatBody(delivery.payload) : JSON.stringify(delivery.payload);
    const outcome = await this.post(endpoint, delivery.event_id, body);
    if (this.abandoned) return;
    const code = outcome.statusCode;
    if (code !== undefined && code >= 200 && code < 300) {
      await this.finish(delivery, { status: 'delivered', outcome });
      // Only when it was failing: a write on every success would cost a commit per delivery.
      if (endpoint.failing_since) await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpoint.id).execute();
    } else if (code === 410) {
      // The receiver says it is gone for good: stop, and send it nothing more.
      await this.finish(delivery, { status: 'gone', outcome });
      await db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'gone', updated_at: this.options.clock.now() }).where('id', '=', endpoint.id).execute();
    } else {
      const delay = this.delays[delivery.attempts - 1];
      const next = delay === undefined ? undefined : new Date(this.options.clock.now().getTime() + jitter(delay));
      await this.finish(delivery, next ? { status: 'pending', outcome, next } : { status: 'failed', outcome });
      await this.noteFailure(endpoint);
    }
  }

  /** One attempt, bounded as a whole by the time limit: the DNS lookup as much as the exchange. */
  private async post(endpoint: ClaimedEndpoint, eventId: string, body: string): Promise<PostOutcome> {
    const now = this.options.clock.now();
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // Checked again at delivery: the host may resolve elsewhere than when the endpoint was saved.
      const url = checkWebhookUrl(endpoint.url, this.allowHosts);
      const target = await beforeAbort(resolveWebhookTarget(url, this.allowHosts, this.options.resolve ?? systemResolver), deadline.signal);
      const secrets = [this.options.box.open(endpoint.secret_sealed)];
      if (endpoint.previous_secret_sealed && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now)
        secrets.push(this.options.box.open(endpoint.previous_secret_sealed));
      const outcome = await postWebhook(url, target, webhookHeaders(secrets, eventId, now, body), body, { signal: deadline.signal, timeoutMs: this.timeoutMs });
      return { ...outcome, durationMs: elapsed() };
    } catch (error) {
      const message = deadline.signal.aborted ? noAnswerWithin(this.timeoutMs) : error instanceof Error ? error.message : String(error);
      return { durationMs: elapsed(), response: '', error: message };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Records an attempt and ends its lease, unless the lease was lost meanwhile (another worker took the row over). */
  private async finish(delivery: DeliveryRow, result: { status: DeliveryRow['status']; outcome: PostOutcome; next?: Date }): Promise<void> {
    const { outcome } = result;
    await this.options.store.db
      .updateTable('webhook_deliveries')
      .set({
        status: result.status,
        next_attempt_at: result.next ?? null,
        claimed_until: null,
        last_status_code: outcome.statusCode ?? null,
        last_duration_ms: outcome.durationMs,
        last_response: outcome.response.slice(0, 1024),
        last_error: outcome.error ?? (outcome.statusCode !== undefined && (outcome.statusCode < 200 || outcome.statusCode >= 300) ? `HTTP ${outcome.statusCode}` : null),
        updated_at: this.options.clock.now(),
      })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', delivery.attempts)
      .execute();
  }

  /** Starts or extends the endpoint's failure window; 3 days of nothing but failures disable it. */
  private async noteFailure(endpoint: ClaimedEndpoint): Promise<void> {
    const now = this.options.clock.now();
    const since = endpoint.failing_since ?? now;
    const disable = now.getTime() - since.getTime() >= FAILING_DISABLE_MS;
    await this.options.store.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: since, ...(disable ? { enabled: false, disabled_reason: 'failing', updated_at: now } : {}) })
      .where('id', '=', endpoint.id)
      .execute();
  }
}

/** ±20 %: receivers that failed together are not all retried in the same second. */
function jitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}
