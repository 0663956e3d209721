// Webhook endpoints of a workspace: create (the signing secret is shown once), change, delete, rotate
// the secret (the previous one keeps signing for 24 h), send a test event, and read or replay the
// delivery log. Deliveries themselves are made by the delivery worker from the rows written here.
import type { Selectable } from 'kysely';
import type { Clock } from '../clock.js';
import { NotFoundError } from '../core/errors.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Store } from '../store/db.js';
import { readPage } from '../store/keyset-page.js';
import type { DeliveryStatus, EndpointFormat, WebhookDeliveriesTable, WebhookEndpointsTable } from '../store/schema.js';
import { recordEvent } from './event-record.js';
import { beforeAbort, checkWebhookUrl, parseAllowHosts, resolveWebhookTarget, systemResolver, WebhookAddressError, type Resolver } from './webhook-address.js';
import { DELIVERY_TIMEOUT_MS } from './webhook-post.js';
import { newWebhookSecret } from './webhook-signing.js';

/** The events an endpoint may ask for; `*` is every event but test events (which go to one endpoint). */
export const SUBSCRIBABLE_EVENTS = ['signal.triggered', 'model.deployed', '*'] as const;
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** A delivery to a disabled endpoint: the event is recorded for it, nothing is sent (a recovery can send it). */
export const SKIPPED = { status: 'skipped', next_attempt_at: null, last_error: 'Not sent: the endpoint was disabled when the event happened (recover it to send it)' } as const;

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface EndpointView {
  id: string;
  url: string;
  /** `standard`: the signed event as JSON; `chat`: {text} for a Slack- or Teams-style incoming webhook. */
  format: EndpointFormat;
  events: string[];
  enabled: boolean;
  /** Why the service disabled the endpoint: `gone` (a 410) or `failing` (3 days without a success). */
  disabled_reason: string | null;
  description: string;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface EndpointInput {
  url?: string | undefined;
  format?: EndpointFormat | undefined;
  events?: string[] | undefined;
  enabled?: boolean | undefined;
  description?: string | undefined;
}

/** Events addressed to one endpoint (a test, a scheduled delivery): never fanned out to others. */
const ADDRESSED_EVENTS: readonly string[] = ['webhook.test', 'delivery.scheduled'];

/** Does an endpoint asking for `wanted` get an event of `type`? */
export function wants(wanted: readonly string[], type: string): boolean {
  return !ADDRESSED_EVENTS.includes(type) && (wanted.includes('*') || wanted.includes(type));
}

export function endpointView(row: EndpointRow, now: Date): EndpointView {
  const previousValid = row.previous_secret_expires_at && row.previous_secret_expires_at > now;
  return {
    id: row.id,
    url: row.url,
    format: row.format,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabled_reason,
    description: row.description,
    previous_secret_expires_at: previousValid ? row.previous_secret_expires_at!.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function deliveryView(row: DeliveryRow & { type: string }): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    last_status_code: row.last_status_code,
    last_duration_ms: row.last_duration_ms,
    last_response: row.last_response,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class WebhookService {
  private readonly allowHosts: ReadonlySet<string>;

  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    allowHosts: readonly string[],
    private readonly resolve: Resolver = systemResolver,
    /** A URL's host must resolve within this long when an endpoint is saved, as at delivery. */
    private readonly lookupTimeoutMs: number = DELIVERY_TIMEOUT_MS,
  ) {
    this.allowHosts = parseAllowHosts(allowHosts.join(','));
  }

  async list(workspaceId: string): Promise<EndpointView[]> {
    const rows = await this.store.db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
    const now = this.clock.now();
    return rows.map((r) => endpointView(r, now));
  }

  async get(workspaceId: string, id: string): Promise<EndpointView> {
    return endpointView(await this.row(workspaceId, id), this.clock.now());
  }

  async create(workspaceId: string, input: EndpointInput & { url: string; events: string[] }): Promise<{ endpoint: EndpointView; secret: string }> {
    await this.checkUrl(input.url);
    const events = checkEvents(input.events);
    const secret = newWebhookSecret();
    const row = await this.store.db
      .insertInto('webhook_endpoints')
      .values({
        workspace_id: workspaceId,
        url: input.url,
        ...(input.format ? { format: input.format } : {}),
        events: JSON.stringify(events),
        enabled: input.enabled ?? true,
        description: input.description ?? '',
        secret_sealed: this.box.seal(secret),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { endpoint: endpointView(row, this.clock.now()), secret };
  }

  async update(workspaceId: string, id: string, input: EndpointInput): Promise<EndpointView> {
    const current = await this.row(workspaceId, id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const events = input.events !== undefined ? checkEvents(input.events) : undefined;
    const now = this.clock.now();
    const row = await this.store.db.transaction().execute(async (trx) => {
      // Enabled again: the retries held while it was disabled go out now, not at their old backoff time.
      if (input.enabled === true && !current.enabled)
        await trx.updateTable('webhook_deliveries').set({ next_attempt_at: now }).where('endpoint_id', '=', id).where('status', '=', 'pending').where('next_attempt_at', '>', now).execute();
      return trx
        .updateTable('webhook_endpoints')
        .set({
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.format !== undefined ? { format: input.format } : {}),
          ...(events ? { events: JSON.stringify(events) } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          // Enabling again clears why it was disabled and starts the 3-day failure window afresh.
          ...(input.enabled !== undefined ? { enabled: input.enabled, disabled_reason: null, failing_since: null } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return endpointView(row, now);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.row(workspaceId, id);
    await this.store.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  }

  /** A new secret, shown once; the current one keeps signing (a second signature) for 24 h. */
  async rotate(workspaceId: string, id: string): Promise<{ endpoint: EndpointView; secret: string }> {
    const current = await this.row(workspaceId, id);
    const secret = newWebhookSecret();
    const now = this.clock.now();
    const row = await this.store.db
      .updateTable('webhook_endpoints')
      .set({
        secret_sealed: this.box.seal(secret),
        previous_secret_sealed: current.secret_sealed,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { endpoint: endpointView(row, now), secret };
  }

  /** Records a `webhook.test` event and its one delivery, to this endpoint only, due now. */
  async sendTest(workspaceId: string, id: string): Promise<DeliveryView> {
    const endpoint = await this.row(workspaceId, id);
    const now = this.clock.now();
    const delivery = await this.store.db.transaction().execute(async (trx) => {
      const event = await recordEvent(trx, { workspaceId, type: 'webhook.test', fields: { endpoint_id: endpoint.id, sent_at: now.toISOString() } });
      await trx.updateTable('events').set({ fanned_out_at: now }).where('id', '=', event.id).execute();
      return trx
        .insertInto('webhook_deliveries')
        // A disabled endpoint sends nothing: its test is recorded as skipped, as its events are.
        .values({ event_id: event.id, endpoint_id: endpoint.id, workspace_id: workspaceId, ...(endpoint.enabled ? { next_attempt_at: now } : SKIPPED) })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return deliveryView({ ...delivery, type: 'webhook.test' });
  }

  /** The endpoint's deliveries, newest first; `cursor` is the `next_cursor` of the previous page. */
  async deliveries(workspaceId: string, id: string, page: { limit: number; cursor?: string | undefined }): Promise<{ deliveries: DeliveryView[]; next_cursor: string | null }> {
    await this.row(workspaceId, id);
    const query = this.store.db.selectFrom('webhook_deliveries as d').innerJoin('events as e', 'e.id', 'd.event_id').selectAll('d').select('e.type').where('d.endpoint_id', '=', id);
    const { rows, nextCursor } = await readPage(query, { time: 'd.created_at', id: 'd.id', direction: 'desc' }, page);
    return { deliveries: rows.map(deliveryView), next_cursor: nextCursor };
  }

  /** Sends a delivery again from the start of the retry schedule, whatever its state. */
  async redeliver(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryView> {
    await this.row(workspaceId, id);
    if (!UUID.test(deliveryId)) throw new NotFoundError('No such delivery of this webhook');
    const now = this.clock.now();
    const row = await this.store.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
      .where('id', '=', deliveryId)
      .where('endpoint_id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No such delivery of this webhook');
    const event = await this.store.db.selectFrom('events').select('type').where('id', '=', row.event_id).executeTakeFirstOrThrow();
    return deliveryView({ ...row, type: event.type });
  }

  private async checkUrl(raw: string): Promise<void> {
    if (raw.length > 2000) throw new WebhookAddressError('The webhook URL is longer than 2000 characters');
    const url = checkWebhookUrl(raw, this.allowHosts);
    // A lookup that hangs must not hold the request: it is bounded like a delivery's.
    const bounded: Resolver = (host) =>
      beforeAbort(this.resolve(host), AbortSignal.timeout(this.lookupTimeoutMs)).catch((error: unknown) => {
        throw error instanceof Error && error.message === 'aborted' ? new WebhookAddressError(`The webhook host ${host} did not resolve within ${this.lookupTimeoutMs} ms`) : error;
      });
    await resolveWebhookTarget(url, this.allowHosts, bounded);
  }

  private async row(workspaceId: string, id: string): Promise<EndpointRow> {
    // Another workspace's endpoint is as unknown as a missing one.
    const row = UUID.test(id)
      ? await this.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst()
      : undefined;
    if (!row) throw new NotFoundError('No such webhook in your workspace');
    return row;
  }
}

function checkEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  const unknown = unique.filter((e) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e));
  if (!unique.length || unknown.length)
    throw new WebhookEventsError(unknown.length ? `Unknown event(s): ${unknown.join(', ')}; use ${SUBSCRIBABLE_EVENTS.join(', ')}` : 'Name at least one event');
  return unique;
}

class WebhookEventsError extends WebhookAddressError {
  override readonly code = 'invalid_webhook_events';
}

