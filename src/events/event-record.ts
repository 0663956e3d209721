// Writes an event into the outbox. Call it with the transaction that makes the change the event tells
// of (the deployment row, the signal's state change): both commit together or neither does.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';

// `delivery.scheduled` and `webhook.test` go to one endpoint each (the schedule's, the tested one): never fanned out.
export const EVENT_TYPES = ['model.deployed', 'signal.triggered', 'webhook.test', 'delivery.scheduled'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventInput {
  readonly workspaceId: string;
  readonly type: EventType;
  /** The fields of spec 6.1 / 6.2 (without `event`, `event_id`, `workspace_id`, which are added here). */
  readonly fields: Record<string, unknown>;
}

export interface RecordedEvent {
  readonly id: string;
  readonly workspaceId: string;
  readonly type: EventType;
  /** The exact body receivers get: `event`, the fields, `workspace_id`, `event_id`. */
  readonly payload: Record<string, unknown>;
  readonly createdAt: Date;
}

export async function recordEvent(db: Kysely<Database> | Transaction<Database>, input: EventInput): Promise<RecordedEvent> {
  const id = crypto.randomUUID();
  const payload = { event: input.type, ...input.fields, workspace_id: input.workspaceId, event_id: id };
  const row = await db
    .insertInto('events')
    .values({ id, workspace_id: input.workspaceId, type: input.type, payload: JSON.stringify(payload) })
    .returning(['created_at'])
    .executeTakeFirstOrThrow();
  return { id, workspaceId: input.workspaceId, type: input.type, payload, createdAt: row.created_at };
}
