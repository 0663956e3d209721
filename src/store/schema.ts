// Row types of the metadata store, as kysely sees them. One interface per table in migrations/.
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from './schema-columns.js';
import type {
  DeliveryScheduleRunsTable,
  DeliverySchedulesTable,
  EventsTable,
  ScheduledJobsTable,
  SignalEvaluationsTable,
  SignalsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './schema-events.js';
import type { RollupAnswersTable, RollupBuildsTable } from './schema-rollups.js';

export * from './schema-events.js';
export * from './schema-rollups.js';

export const ROLES = ['viewer', 'tracer', 'editor', 'luminary'] as const;
export type Role = (typeof ROLES)[number];

export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const KEY_SURFACES = ['question', 'workspace', 'structured'] as const;
export type KeySurface = (typeof KEY_SURFACES)[number];

export const ENGINES = ['postgres', 'mysql', 'snowflake', 'duckdb'] as const;
export type Engine = (typeof ENGINES)[number];

export type Attributes = Record<string, string>;

export interface WorkspacesTable {
  id: Generated<string>;
  name: string;
  plan: Plan;
  timezone: Generated<string>;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: CreatedAt;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  attributes: Json<Attributes>;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  workspace_id: string;
  user_id: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
}

export interface ApiKeysTable {
  id: Generated<string>;
  workspace_id: string;
  user_id: string;
  name: string;
  surface: KeySurface;
  prefix: string;
  secret_hash: string;
  scopes: Json<string[]>;
  rate_limit: number | null;
  created_at: CreatedAt;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface ConnectionsTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  engine: Engine;
  config: Json<Record<string, unknown>>;
  secret_ciphertext: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ProjectsTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  slug: string;
  created_at: CreatedAt;
}

export interface CmlFilesTable {
  project_id: string;
  path: string;
  content: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DeploymentsTable {
  id: Generated<string>;
  workspace_id: string;
  project_id: string;
  deployed_at: CreatedAt;
  deployed_by: string | null;
  deployed_by_email: string;
  message: string | null;
  pr_url: string | null;
  changed_nodes: Json<string[]>;
}

export const HISTORY_SURFACES = ['workspace_api', 'studio', 'studio_cml', 'question_api', 'structured_api', 'mcp', 'sql_api'] as const;
export type HistorySurface = (typeof HISTORY_SURFACES)[number];
/**
 * What asked for a run: `sql` (a user's statement), `question_sql` (the question API's raw-SQL fallback),
 * and for governed runs `structured`, `question`, `cml`, `scene:<id>`, `mosaic:<id>`, `signal:<id>`.
 */
export type HistoryOrigin = string;
export type HistoryStatus = 'success' | 'error' | 'refused';

export interface QueryHistoryTable {
  id: Generated<string>;
  workspace_id: string;
  user_id: string | null;
  connection_id: string | null;
  connection_name: string;
  source: string;
  surface: HistorySurface;
  origin: ColumnType<HistoryOrigin, HistoryOrigin | undefined, HistoryOrigin>;
  sql: string;
  /** A governed run's bound values (null for raw SQL). */
  params: ColumnType<unknown[] | null, string | null | undefined, string | null>;
  /** A governed run's statement with its values written as literals (null for raw SQL). */
  runnable_sql: ColumnType<string | null, string | null | undefined, string | null>;
  status: HistoryStatus;
  error: string | null;
  row_count: number | null;
  duration_ms: number | null;
  /** The API key that made the run, where the surface records one (MCP). */
  key_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export const VAULT_ACCESS = ['view', 'edit', 'manage'] as const;
export type VaultAccess = (typeof VAULT_ACCESS)[number];


export interface VaultsTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  description: Generated<string>;
  personal_user_id: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface VaultMembersTable {
  vault_id: string;
  user_id: string;
  access: VaultAccess;
  created_at: CreatedAt;
}

export type SceneStatus = 'ok' | 'broken';

export interface ScenesTable {
  id: Generated<string>;
  workspace_id: string;
  vault_id: string;
  name: string;
  description: Generated<string>;
  node: string;
  query: Json<unknown>;
  visualization: Json<unknown>;
  status: ColumnType<SceneStatus, SceneStatus | undefined, SceneStatus>;
  broken_reason: string | null;
  version: ColumnType<number, number | undefined, number>;
  created_by: string | null;
  updated_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MosaicsTable {
  id: Generated<string>;
  workspace_id: string;
  vault_id: string;
  name: string;
  description: Generated<string>;
  tiles: Json<unknown>;
  filters: Json<unknown>;
  version: ColumnType<number, number | undefined, number>;
  created_by: string | null;
  updated_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OauthClientsTable {
  id: string;
  client_name: string;
  redirect_uris: Json<string[]>;
  created_at: CreatedAt;
}

export interface OauthGrantsTable {
  id: Generated<string>;
  client_id: string;
  workspace_id: string;
  user_id: string;
  scopes: Json<string[]>;
  resource: string;
  redirect_uri: string;
  code_hash: string;
  code_challenge: string;
  code_expires_at: Date;
  code_used_at: Date | null;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export const OAUTH_TOKEN_KINDS = ['access', 'refresh'] as const;
export type OauthTokenKind = (typeof OAUTH_TOKEN_KINDS)[number];

export interface OauthTokensTable {
  id: Generated<string>;
  grant_id: string;
  kind: OauthTokenKind;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: CreatedAt;
}

/** A built partition of a rollup's stored table (migration 0020). */
export interface RollupPartitionsTable {
  workspace_id: string;
  table_name: string;
  node: string;
  rollup: string;
  partition_start: string;
  partition_end: string;
  row_count: number;
  built_at: Date;
  source_max_time: string | null;
  duration_ms: number;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  connections: ConnectionsTable;
  projects: ProjectsTable;
  cml_files: CmlFilesTable;
  deployments: DeploymentsTable;
  query_history: QueryHistoryTable;
  vaults: VaultsTable;
  vault_members: VaultMembersTable;
  scenes: ScenesTable;
  mosaics: MosaicsTable;
  events: EventsTable;
  signals: SignalsTable;
  signal_evaluations: SignalEvaluationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  delivery_schedules: DeliverySchedulesTable;
  delivery_schedule_runs: DeliveryScheduleRunsTable;
  scheduled_jobs: ScheduledJobsTable;
  rollup_partitions: RollupPartitionsTable;
  rollup_builds: RollupBuildsTable;
  rollup_answers: RollupAnswersTable;
  oauth_clients: OauthClientsTable;
  oauth_grants: OauthGrantsTable;
  oauth_tokens: OauthTokensTable;
  schema_migrations: SchemaMigrationsTable;
}
