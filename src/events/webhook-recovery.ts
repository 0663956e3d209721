// Recovering an endpoint's deliveries of a time range once its receiver is back, as Svix's "recover"
// does: every delivery of the range that was not delivered (failed after its retries, gone after a 410,
// or skipped because the endpoint was disabled when the event happened) is sent again from the start of
// the retry schedule, with its event's own webhook-id, oldest first (the worker claims by due time, then
// age). At most RECOVER_LIMIT a call, so that one call is one short statement: `has_more` says to call
// again with the same range.
import type { Clock } from '../clock.js';
import { BadRequestError, ConflictError } from '../core/errors.js';
import type { Store } from '../store/db.js';
import { readStoreNow } from '../store/store-clock.js';
import type { DeliveryStatus } from '../store/schema.js';
import type { WebhookService } from './webhook-service.js';

export const RECOVER_LIMIT = 1000;
/** What a recovery sends again: anything but delivered, and not what is still pending. */
export const RECOVERABLE: readonly DeliveryStatus[] = ['failed', 'gone', 'skipped'];

export interface RecoverRange {
  /** Deliveries created (events fanned out to the endpoint) at or after this… */
  since: Date;
  /** …and before this; now when not given. */
  until?: Date | undefined;
}

export interface Recovery {
  requeued: number;
  has_more: boolean;
  since: string;
  until: string;
}

export class WebhookRecovery {
  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhookService,
    private readonly clock: Clock,
  ) {}

  async recover(workspaceId: string, id: string, range: RecoverRange): Promise<Recovery> {
    // Another workspace's endpoint is a 404, as everywhere.
    const endpoint = await this.webhooks.get(workspaceId, id);
    const now = this.clock.now();
    const { since } = range;
    // Deliveries are stamped by the store when fanned out (created_at's default): "until now" is the store's now.
    const until = range.until ?? (await readStoreNow(this.store.db));
    if (since.getTime() >= until.getTime())
      throw new BadRequestError(range.until ? '`since` must be before `until`' : '`since` must be in the past (without `until`, the range ends now)', 'invalid_range');
    // A disabled endpoint sends nothing: recovering it would only queue deliveries that wait.
    if (!endpoint.enabled) throw new ConflictError('The webhook is disabled: enable it, then recover its deliveries', 'webhook_disabled');
    const db = this.store.db;
    const picked = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', id)
      .where('status', 'in', RECOVERABLE)
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .orderBy('created_at')
      .orderBy('id')
      .limit(RECOVER_LIMIT + 1)
      .execute();
    const ids = picked.slice(0, RECOVER_LIMIT).map((r) => r.id);
    const requeued = ids.length
      ? await db
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, updated_at: now })
          .where('id', 'in', ids)
          .where('status', 'in', RECOVERABLE)
          .executeTakeFirst()
      : undefined;
    return { requeued: Number(requeued?.numUpdatedRows ?? 0), has_more: picked.length > RECOVER_LIMIT, since: since.toISOString(), until: until.toISOString() };
  }
}
