// Row types of the metadata store's event side, as kysely sees them: the outbox, webhook endpoints and
// deliveries, scheduled deliveries, signals and their evaluations, and jobs run once across instances.
// The rest of the store's tables are in schema.ts, which re-exports these.
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from './schema-columns.js';

/** An emitted event, kept in the outbox (migration 0007). `payload` is the body receivers get. */
export interface EventsTable {
  id: Generated<string>;
  workspace_id: string;
  type: string;
  payload: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  /** Set once the event's webhook deliveries were created (migration 0008). */
  fanned_out_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'gone', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A receiver of events (migration 0008). Secrets are sealed with the SecretBox. */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  workspace_id: string;
  url: string;
  events: Json<string[]>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  description: ColumnType<string, string | undefined, string>;
  secret_sealed: string;
  previous_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  failing_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** How the body is written: the signed event (`standard`) or `{text}` for a chat webhook (migration 0018). */
  format: ColumnType<EndpointFormat, EndpointFormat | undefined, EndpointFormat>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export const ENDPOINT_FORMATS = ['standard', 'chat'] as const;
export type EndpointFormat = (typeof ENDPOINT_FORMATS)[number];

/** A scene or mosaic sent on a cron to a webhook endpoint, as its owner (migration 0018). */
export interface DeliverySchedulesTable {
  id: Generated<string>;
  workspace_id: string;
  owner_id: string;
  name: string;
  target_kind: 'scene' | 'mosaic';
  target_id: string;
  endpoint_id: string;
  cron: string;
  timezone: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  next_run_at: Date | null;
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_run_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** Runs in a row that sent nothing; the schedule stops at FAILED_RUNS_TO_STOP (migration 0019). */
  failed_runs: ColumnType<number, number | undefined, number>;
  /** Why the schedule stopped by itself; cleared when it is edited or resumed. */
  stopped_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One run of a delivery schedule: the outbox rows it wrote, or why it failed. */
export interface DeliveryScheduleRunsTable {
  id: Generated<string>;
  schedule_id: string;
  ran_at: Date;
  trigger: 'schedule' | 'send_now';
  status: 'queued' | 'error';
  error: string | null;
  event_id: string | null;
  delivery_id: string | null;
}

/** One event to one endpoint, with the state of its attempts (migration 0008). */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  workspace_id: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_status_code: ColumnType<number | null, number | null | undefined, number | null>;
  last_duration_ms: ColumnType<number | null, number | null | undefined, number | null>;
  last_response: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** The end of an attempt's lease, on the store's clock (migration 0011); null when none runs. */
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** An alert on one value (migration 0009). */
export interface SignalsTable {
  id: Generated<string>;
  workspace_id: string;
  vault_id: string;
  owner_id: string;
  name: string;
  watch: Json<Record<string, unknown>>;
  condition: string;
  threshold: number;
  cron: string | null;
  timezone: string | null;
  interval_seconds: number | null;
  enabled: Generated<boolean>;
  state: Generated<string>;
  holding: Generated<boolean>;
  last_value: number | null;
  /** With a comparison, the measure in both periods when last_value was read (migration 0017). */
  last_compared: ColumnType<ComparedJson | null, string | null | undefined, string | null>;
  last_evaluated_at: Date | null;
  last_error: string | null;
  /** Why the signal stopped by itself (see signal-recorder.ts); null while it runs. */
  stopped_reason: Generated<string | null>;
  next_run_at: Date | null;
  claimed_until: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One evaluation of a signal, kept as its history. */
export interface SignalEvaluationsTable {
  id: Generated<string>;
  signal_id: string;
  evaluated_at: Date;
  value: number | null;
  previous: number | null;
  holds: boolean | null;
  state: string;
  fired: boolean;
  error: string | null;
  /** The user whose data keys read the value; null for rows older than the column (the signal's owner). */
  read_as: string | null;
  /** With a comparison, the measure in both periods and the periods (migration 0017). */
  compared: ColumnType<ComparedJson | null, string | null | undefined, string | null>;
}

/** A comparison an evaluation read: the watched measure in the current and the comparison period. */
export interface ComparedJson {
  current: number | null;
  comparison: number | null;
  range: [string, string];
  comparison_range: [string, string];
}

/** A job run once across every instance on the store, under a lease (migration 0012). */
export interface ScheduledJobsTable {
  name: string;
  next_run_at: Date;
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
}
